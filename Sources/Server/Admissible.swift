import Protocol

/// What ``Admission`` needs to know of a thing the lobby is to decide: whose it is, and whether
/// it is a move (decided at once, always).
protocol Admissible {
  /// The client connection it comes from; nil for what is no client's (news from the
  /// cluster, another node's link), which is decided at once.
  var connection: ConnectionID? { get }
  /// Whether it is a move: a card chosen.
  var isMove: Bool { get }
}
