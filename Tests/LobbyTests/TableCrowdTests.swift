import Lobby
import Model
import Protocol
import Testing

/// A crowd at one table (issue 36): spectators coming and going are no change of the game, the
/// members hear the count at most once a second, and every change reaches the players before
/// the crowd.
struct TableCrowdTests {
  let ada = ConnectionID(1)
  let bob = ConnectionID(2)

  /// A two-seat Set table that plays (Ada and Bob seated, dealt at once).
  func playing() -> TableHost {
    var rules = TableRules()
    rules.countdown = 0
    let table = TableState<SetCard>(
      id: "t1", code: "ABCD", isPrivate: false, settings: .set(seats: 2), seed: 7, rules: rules,
      now: 0)
    var host = TableHost(table: table, creator: "token-ada", emptyTableGrace: 30)
    for (connection, name) in [(ada, "ada"), (bob, "bob")] {
      _ = host.handle(
        .sit(token: "token-\(name)", name: name, player: nil, connection: connection, replyTo: nil),
        now: 0)
    }
    _ = host.handle(.clock, now: 0)
    return host
  }

  /// The `spectators` messages among `actions`, as (count, recipients): one per telling (its
  /// frame to the players and the same frame to the crowd).
  func told(_ actions: [LobbyAction]) -> [(count: Int, to: [ConnectionID])] {
    var tellings: [(frame: Frame, count: Int, to: [ConnectionID])] = []
    for action in actions {
      let frame: Frame
      let to: [ConnectionID]
      switch action {
      case .send(let f, let r), .sendToCrowd(let f, let r): (frame, to) = (f, r)
      default: continue
      }
      guard let message = JSONValue.parse(frame.payload), message["type"] == "spectators",
        let count = message["count"]?.intValue
      else { continue }
      if let last = tellings.indices.last, tellings[last].frame === frame {
        tellings[last].to += to
      } else {
        tellings.append((frame, count, to))
      }
    }
    return tellings.map { ($0.count, $0.to) }
  }

  func watch(_ n: UInt64, _ host: inout TableHost, now: Double) -> [LobbyAction] {
    var actions = host.handle(
      .watch(token: "token-s\(n)", connection: ConnectionID(100 + n), replyTo: nil), now: now
    ).actions
    // As the router does after every event: the clock runs (``LobbyState/settle``).
    actions += host.handle(.clock, now: now).actions
    return actions
  }

  @Test func aThousandArrivingAreToldAsAFewCountsAndNoDiff() throws {
    var host = playing()
    let version = host.table.version
    var frames = 0
    var tellings: [(count: Int, to: Int)] = []
    for n in 0..<1000 {
      // A thousand in 2.5 s.
      let actions = watch(UInt64(n), &host, now: 1 + Double(n) * 0.0025)
      for action in actions {
        switch action {
        case .send(_, let to), .sendToCrowd(_, let to): frames += to.count
        default: break
        }
      }
      tellings += told(actions).map { ($0.count, $0.to.count) }
    }
    #expect(host.table.version == version, "the crowd made diffs")
    #expect(host.table.diffs(after: version, seat: nil)?.isEmpty == true)
    // The first at once, then at most one a second (at 2 and 3 s), and the last count once its
    // second is over.
    #expect(tellings.first?.count == 1)
    #expect(tellings.count <= 3)
    let due = try #require(host.handle(.clock, now: 3.5).deadline)
    #expect(due <= 4.5)
    let last = told(host.handle(.clock, now: 4.5).actions)
    #expect(last.map(\.count) == [1000])
    #expect(last.map(\.to.count).reduce(0, +) == 1002)
    // Each newcomer's snapshot, and the few counts: nothing like 1000²/2 frames.
    #expect(frames < 1000 + 2 * 1002)
    #expect(host.table.spectators == 1000)
    #expect(host.table.listing.spectators == 1000)
    // Quiet again: nothing more is due.
    #expect(host.handle(.clock, now: 10).deadline == nil)
  }

  @Test func aCountBackWhereItWasIsToldAgain() throws {
    var host = playing()
    _ = watch(1, &host, now: 1)
    // Told at 1 s (1). Another comes and goes within the second: newcomer's snapshot said 2,
    // so the members hear 1 again, once the second is over.
    _ = watch(2, &host, now: 1.2)
    _ = host.handle(.drop(connection: ConnectionID(102)), now: 1.3)
    #expect(host.handle(.clock, now: 1.3).deadline == 2)
    #expect(told(host.handle(.clock, now: 2).actions).map(\.count) == [1])
  }

  @Test func aChangeReachesThePlayersBeforeTheCrowd() throws {
    var host = playing()
    for n in 0..<50 { _ = watch(UInt64(n), &host, now: 1) }
    let card = try #require(boardCard(host))
    let outcome = host.handle(.choose(card: card, seat: 0, connection: ada, replyTo: nil), now: 2)
    let sends = outcome.actions.compactMap { action -> String? in
      switch action {
      case .send(_, let to): "players \(Set(to) == [ada, bob])"
      case .sendToCrowd(_, let to): "crowd \(to.count)"
      default: nil
      }
    }
    #expect(sends == ["players true", "crowd 50"])
  }

  @Test func aSpectatorBackWithTheDiffsItMissedHearsTheCountToo() throws {
    var host = playing()
    _ = watch(1, &host, now: 1)
    let version = host.table.version
    _ = host.handle(.drop(connection: ConnectionID(101)), now: 2)
    _ = watch(2, &host, now: 2)
    let back = host.handle(
      .rejoin(
        token: "token-s1", connection: ConnectionID(201), replacing: nil, seat: nil,
        version: version),
      now: 2.5)
    #expect(told(back.actions).map(\.count) == [2])
    #expect(told(back.actions).map(\.to) == [[ConnectionID(201)]])
  }

  /// The snapshot `actions` send to `connection`.
  private func snapshotFrame(_ actions: [LobbyAction], to connection: ConnectionID) -> [UInt8]? {
    for case .send(let frame, let to) in actions where to == [connection] {
      if JSONValue.parse(frame.payload)?["type"] == "snapshot" { return frame.payload }
    }
    return nil
  }

  @Test func aCrowdArrivingSharesOneEncodingAndEachSeesTheTableAsItIsNow() throws {
    var host = playing()
    var sent: [[UInt8]?] = []
    var expected: [[UInt8]] = []
    func arrive(_ n: UInt64, at now: Double) {
      let connection = ConnectionID(100 + n)
      let outcome = host.handle(
        .watch(token: "token-s\(n)", connection: connection, replyTo: .int(Int(n))), now: now)
      sent.append(snapshotFrame(outcome.actions, to: connection))
      expected.append(host.table.snapshot(replyTo: .int(Int(n)), you: nil, now: now).encoded)
      _ = host.handle(.clock, now: now)
    }
    for n in 0..<20 { arrive(UInt64(n), at: 1 + Double(n) * 0.01) }
    #expect(sent == expected.map { $0 })
    #expect(host.crowdSnapshots.encodings == 1)
    // A move changes what the table shows: the next spectator sees it, encoded afresh.
    let card = try #require(boardCard(host))
    _ = host.handle(.choose(card: card, seat: 0, connection: ada, replyTo: nil), now: 2)
    #expect(!host.crowdSnapshots.isHolding, "a table in play keeps no snapshot")
    for n in 20..<30 { arrive(UInt64(n), at: 2 + Double(n - 20) * 0.01) }
    #expect(sent == expected.map { $0 })
    #expect(host.crowdSnapshots.encodings == 2)
    #expect(JSONValue.parse(try #require(sent.last ?? nil))?["table"]?["spectators"] == 30)
    // A spectator back without its version gets the same snapshot.
    let back = host.handle(
      .rejoin(
        token: "token-s0", connection: ConnectionID(300), replacing: ConnectionID(100),
        seat: nil, version: nil),
      now: 2.5)
    #expect(
      snapshotFrame(back.actions, to: ConnectionID(300))
        == host.table.snapshot(replyTo: nil, you: nil, now: 2.5).encoded)
    #expect(host.crowdSnapshots.encodings == 2)
  }

  @Test func crowdsLeaveInAnyOrder() {
    var list = MemberList()
    for n in 0..<10 { list.insert(ConnectionID(UInt64(n))) }
    list.insert(ConnectionID(3))
    #expect(list.count == 10)
    for n in [0, 9, 4, 4, 7] { list.remove(ConnectionID(UInt64(n))) }
    #expect(Set(list.ids.map(\.rawValue)) == [1, 2, 3, 5, 6, 8])
    #expect(list.ids.count == 6)
    for n in list.ids { #expect(list.contains(n)) }
    #expect(!list.contains(ConnectionID(4)))
    for id in list.ids { list.remove(id) }
    #expect(list.isEmpty)
  }

  private func boardCard(_ host: TableHost) -> Int? {
    host.table.snapshot(replyTo: nil, you: 0, now: 2)["table"]?["board"]?.elements?.first?["id"]?
      .intValue
  }
}
