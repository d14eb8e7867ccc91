/// A public table's offer of a computer player to a person waiting there alone (issue 33):
/// after ``after`` seconds alone, the host may seat one (`addComputer`). The offer stands until
/// the table changes: someone sits, the game starts, the player leaves. A computer seated so
/// stands in for a person: the next person to sit before the game starts takes its place.
public struct ComputerOffer: Hashable, Sendable {
  /// The seconds a table offers a computer after by default (`offerComputer`).
  public static let defaultAfter: Double = 20

  /// Seconds alone before the offer (nil: never, as at private tables).
  public internal(set) var after: Double?
  /// Since when one person has waited alone, or nil while not so.
  var aloneSince: Double?
  /// Whether a computer is offered now.
  public internal(set) var isOpen = false

  /// An offer that is never made.
  public init() {}

  /// When the offer is due: while one person waits alone and it is not made yet.
  var due: Double? {
    guard !isOpen, let after, let aloneSince else { return nil }
    return aloneSince + after
  }
}
