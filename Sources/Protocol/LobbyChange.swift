/// A change to the lobby list.
public enum LobbyChange: Hashable, Sendable {
  /// The table is new or changed.
  case upsert(TableListing)
  /// The table is gone from the list.
  case remove(id: String)

  /// The change on the wire.
  public var json: JSONValue {
    switch self {
    case .upsert(let listing): .object([("op", "upsert"), ("table", listing.json)])
    case .remove(let id): .object([("op", "remove"), ("id", .string(id))])
    }
  }
}
