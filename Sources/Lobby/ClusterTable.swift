import Protocol

/// One table of the cluster as the shared directory holds it: its lobby row (whose
/// ``TableListing/node`` names the node that holds it), its invite code, whether it is left out
/// of the list, and where its node takes connections of its own.
public struct ClusterTable: Hashable, Sendable {
  /// The lobby row.
  public var listing: TableListing
  /// The invite code (a private table is found by it on any node).
  public var code: String
  /// Whether the table is left out of the list.
  public var isPrivate: Bool
  /// The node's own WebSocket URL, if it gives one.
  public var url: String?

  /// A table of the cluster.
  public init(listing: TableListing, code: String, isPrivate: Bool, url: String? = nil) {
    self.listing = listing
    self.code = code
    self.isPrivate = isPrivate
    self.url = url
  }

  /// The table's id.
  public var id: String { listing.id }
}

/// A change to the tables one node holds, as the shared directory and the other nodes hear it.
public enum ClusterChange: Hashable, Sendable {
  /// The table is new or changed.
  case upsert(ClusterTable)
  /// The table closed.
  case remove(id: String)

  /// The table the change is about.
  public var id: String {
    switch self {
    case .upsert(let table): table.id
    case .remove(let id): id
    }
  }
}
