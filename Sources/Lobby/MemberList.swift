/// The connections of one kind at a table (its players', or its spectators'), in an array that a
/// broadcast hands on without copying, with their places kept so that one leaves in constant
/// time: a crowd of ten thousand leaving is not ten thousand walks of the array. The order is
/// the order they came in, except that one leaving takes the last one's place.
public struct MemberList: Sendable {
  /// The connections, to send to.
  public private(set) var ids: [ConnectionID] = []
  private var places = PartitionedDictionary<ConnectionID, Int>()

  public init() {}

  public var isEmpty: Bool { ids.isEmpty }
  public var count: Int { ids.count }

  public func contains(_ id: ConnectionID) -> Bool { places[id] != nil }

  /// Adds `id` at the end unless it is there already.
  public mutating func insert(_ id: ConnectionID) {
    guard places[id] == nil else { return }
    places[id] = ids.count
    ids.append(id)
  }

  /// Takes `id` out, the last one moving into its place.
  public mutating func remove(_ id: ConnectionID) {
    guard let place = places.removeValue(forKey: id) else { return }
    let last = ids.removeLast()
    if last != id {
      ids[place] = last
      places[last] = place
    }
  }
}
