import Foundation
import Lobby
import Protocol
import Testing

/// Not a test of the suite: `PROBE=TableCountProbe scripts/lobby-growth.sh` copies it into
/// Tests/LobbyTests for one release run and takes it out again. `TABLE_COUNT_TABLES` tables of
/// four players (10,000 unless told), then the metrics' count of the tables by game and phase
/// taken 21 times each way, alternating: each host read out of the lobby (`table(_:)`, a copy of
/// the host) into a dictionary keyed by the labels, as before 2026-12-07, and the lobby's
/// `tableTally` (kept as tables change, since 2026-12-07 evening; between the two, a count of
/// every table read in place took 1.2-1.6 ms here). Timed in the thread's CPU time.
struct TableCountProbe {
  final class Counter: @unchecked Sendable {
    var n = 0
    func next() -> Int {
      n += 1
      return n
    }
  }

  struct Labels: Hashable {
    var game: String
    var phase: String
  }

  @Test func tablesCounted() throws {
    let tables = Int(ProcessInfo.processInfo.environment["TABLE_COUNT_TABLES"] ?? "") ?? 10_000
    var configuration = LobbyConfiguration()
    configuration.journal = true
    let tokens = Counter()
    // Invite codes drawn at random: a counter's draws repeat a code after a few dozen tables.
    var state = LobbyState(
      configuration: configuration,
      entropy: LobbyEntropy(
        seed: { 5 }, token: { "token-\(tokens.next())-of-the-length-of-a-real-one" },
        below: { Int.random(in: 0..<$0) }, hash: { "hash(\($0))" }))
    try state.restore(JournalContents(lastTableNumber: 0), now: 0)
    // Each table opened by its first player and joined by id by three more (a quick match
    // would look through every open table for each).
    for player in 0..<(4 * tables) {
      let connection = ConnectionID(UInt64(100 + player))
      state.noteAddress(
        "10.\(player / 62_500).\(player / 250 % 250).\(player % 250)", of: connection)
      let sit =
        player % 4 == 0
        ? #"{"type":"createTable","id":2,"game":"set","seats":4}"#
        : #"{"type":"join","id":2,"table":"t\#(player / 4 + 1)"}"#
      for text in [#"{"type":"hello","id":1,"name":"p\#(player)"}"#, sit] {
        _ = state.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: 1)
        _ = state.advance(to: 1)
      }
    }
    #expect(state.tableCount == tables)
    #expect(state.members(of: "t1").count == 4)
    #expect(state.members(of: "t\(tables)").count == 4)

    func cpuMicroseconds() -> Double {
      var now = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
      return Double(now.tv_sec) * 1e6 + Double(now.tv_nsec) / 1e3
    }
    var copied: [Double] = []
    var tallied: [Double] = []
    for _ in 0..<21 {
      var start = cpuMicroseconds()
      var counts: [Labels: Int] = [:]
      for id in state.tableIDs {
        guard let table = state.table(id) else { continue }
        counts[Labels(game: table.gameName, phase: table.phase.rawValue), default: 0] += 1
      }
      copied.append(cpuMicroseconds() - start)
      start = cpuMicroseconds()
      let tally = state.tableTally
      tallied.append(cpuMicroseconds() - start)
      #expect(tally.total == counts.values.reduce(0, +))
    }
    for (name, times) in [("copied", copied), ("tallied", tallied)] {
      let sorted = times.sorted()
      print(
        "count: \(name), \(tables) tables: median \(Int(sorted[sorted.count / 2])) µs,"
          + " fastest \(Int(sorted[0])) µs, slowest \(Int(sorted[sorted.count - 1])) µs")
    }
  }
}
