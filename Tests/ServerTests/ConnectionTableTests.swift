import Lobby
import Testing

@testable import Server

/// The service thread's connections by the slot their id names (``ConnectionTable``).
@Suite struct ConnectionTableTests {
  private static func state(_ id: ConnectionID, isLink: Bool = false) -> ConnectionState {
    ConnectionState(
      id: id, wsi: OpaquePointer(bitPattern: 1)!, configuration: TransportConfiguration(),
      now: 0, isLink: isLink)
  }

  @Test func eachConnectionIsFoundByItsIdUntilItIsRemoved() throws {
    var table = ConnectionTable()
    #expect(table.isEmpty)
    let ids = (1...1_000).map { table.newClientID(number: UInt64($0)) }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy { !$0.isLink })
    for id in ids { table[id] = Self.state(id) }
    #expect(table.count == 1_000)
    #expect(ids.allSatisfy { table[$0]?.id == $0 })
    let removal = table.removeValue(forKey: ids[10])
    let removed = try #require(removal)
    #expect(removed.id == ids[10])
    #expect(table[ids[10]] == nil)
    let again = table.removeValue(forKey: ids[10])
    #expect(again == nil)
    table[ids[11]] = nil
    #expect(table[ids[11]] == nil)
    #expect(table.count == 998)
    #expect(Set(table.values.map(\.id)) == Set(ids).subtracting([ids[10], ids[11]]))
  }

  /// A freed slot goes to the next connection, under an id no earlier connection had: the
  /// lobby may still name the old one (a frame for a player who just left), which finds nothing.
  @Test func aSlotTakenAgainIsNotFoundByItsFormerId() {
    var table = ConnectionTable()
    let first = table.newClientID(number: 1)
    table[first] = Self.state(first)
    let second = table.newClientID(number: 2)
    table[second] = Self.state(second)
    table.removeValue(forKey: first)
    let third = table.newClientID(number: 3)
    table[third] = Self.state(third)
    #expect(third != first)
    #expect(third.rawValue & 0xFF_FFFF == first.rawValue & 0xFF_FFFF)
    #expect(table[first] == nil)
    let stale = table.removeValue(forKey: first)
    #expect(stale == nil)
    #expect(table[third]?.id == third)
    #expect(table[second]?.id == second)
    #expect(table.count == 2)
  }

  /// An id the table never gave (past its slots) finds nothing and removes nothing.
  @Test func anIdTheTableNeverGaveFindsNothing() {
    var table = ConnectionTable()
    let id = table.newClientID(number: 1)
    table[id] = Self.state(id)
    #expect(table[ConnectionID(rawValue: 5)] == nil)
    #expect(id == ConnectionID(rawValue: 1 << 24))
    #expect(table[ConnectionID(rawValue: 2 << 24)] == nil)
    let unknown = table.removeValue(forKey: ConnectionID(rawValue: 5))
    #expect(unknown == nil)
    #expect(table.count == 1)
  }

  /// Links keep the ids the lobby chose for them.
  @Test func linksAreKeptByTheIdsTheLobbyChose() {
    var table = ConnectionTable()
    let client = table.newClientID(number: 1)
    table[client] = Self.state(client)
    let link = ConnectionID.link(0)
    table[link] = Self.state(link, isLink: true)
    #expect(table.count == 2)
    #expect(table[link]?.isLink == true)
    #expect(table[ConnectionID.link(1)] == nil)
    #expect(table.values.count == 2)
    let removed = table.removeValue(forKey: link)
    #expect(removed?.id == link)
    #expect(table[link] == nil)
    #expect(table.count == 1)
  }

  /// The numbers above the slot wrap below the link bit: a client's id never reads as a link.
  @Test func aClientsIdNeverReadsAsALink() {
    var table = ConnectionTable()
    let id = table.newClientID(number: .max)
    #expect(!id.isLink)
  }
}
