import Protocol

/// One table of the cluster as the shared directory holds it: its lobby row (whose
/// ``TableListing/node`` names the node that holds it), its invite code, whether it is left out
/// of the list, and where its node takes connections of its own: from clients, when it says so,
/// and from the other nodes.
public struct ClusterTable: Hashable, Sendable {
  /// The lobby row.
  public var listing: TableListing
  /// The invite code (a private table is found by it on any node).
  public var code: String
  /// Whether the table is left out of the list.
  public var isPrivate: Bool
  /// The node's own WebSocket URL for clients, if it gives one (`--advertise-url`): named in
  /// redirects.
  public var url: String?
  /// Where the other nodes reach the node (its ``url``, or its own address when it gives none
  /// to clients): the node a spectator reached links there to watch the table for it.
  public var linkURL: String?

  /// A table of the cluster; its node's ``linkURL`` is its `url` unless told otherwise.
  public init(
    listing: TableListing, code: String, isPrivate: Bool, url: String? = nil,
    linkURL: String? = nil
  ) {
    self.listing = listing
    self.code = code
    self.isPrivate = isPrivate
    self.url = url
    self.linkURL = linkURL ?? url
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
