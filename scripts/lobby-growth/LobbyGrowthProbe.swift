import Foundation
import Lobby
import Protocol
import Testing

/// Not a test of the suite: `scripts/lobby-growth.sh` copies it into Tests/LobbyTests for one
/// release run and takes it out again. One table of the lobby (journal on), then
/// `LOBBY_GROWTH_SPECTATORS` spectators (60,000 unless told) arriving one after the other, each a
/// `hello` and a `spectate`, every decision timed on its own: the slowest decisions and where
/// they came, how many took over 1 ms and 0.5 ms, the median and the total. Timed in the
/// thread's CPU time, which the time the hypervisor takes the core away is not part of.
struct LobbyGrowthProbe {
  final class Counter: @unchecked Sendable {
    var n = 0
    func next() -> Int {
      n += 1
      return n
    }
  }

  @Test func spectatorsArriving() throws {
    let spectators =
      Int(ProcessInfo.processInfo.environment["LOBBY_GROWTH_SPECTATORS"] ?? "")
      ?? 60_000
    var configuration = LobbyConfiguration()
    configuration.journal = true
    configuration.spectatorLimit = spectators + 1
    let tokens = Counter()
    let draws = Counter()
    var state = LobbyState(
      configuration: configuration,
      entropy: LobbyEntropy(
        seed: { 5 }, token: { "token-\(tokens.next())-of-the-length-of-a-real-one" },
        below: { draws.next() % $0 }, hash: { "hash(\($0))" }))
    try state.restore(JournalContents(lastTableNumber: 0), now: 0)
    func send(_ text: String, from connection: ConnectionID, at now: Double) {
      _ = state.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: now)
      _ = state.advance(to: now)
    }
    send(#"{"type":"hello","id":1,"name":"host"}"#, from: ConnectionID(1), at: 1)
    send(#"{"type":"createTable","id":2,"game":"set","seats":4}"#, from: ConnectionID(1), at: 1)
    let table = try #require(state.tableIDs.first)

    func cpuMicroseconds() -> Double {
      var now = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
      return Double(now.tv_sec) * 1e6 + Double(now.tv_nsec) / 1e3
    }
    var decisions: [(microseconds: Double, arrival: Int, message: String)] = []
    decisions.reserveCapacity(2 * spectators)
    for arrival in 0..<spectators {
      let connection = ConnectionID(UInt64(100 + arrival))
      let now = 2 + Double(arrival) * 0.0001
      state.noteAddress(
        "10.\(arrival / 62_500).\(arrival / 250 % 250).\(arrival % 250)", of: connection)
      for (message, text) in [
        ("hello", #"{"type":"hello","id":1,"name":"s\#(arrival)"}"#),
        ("spectate", #"{"type":"spectate","id":2,"table":"\#(table)"}"#),
      ] {
        let start = cpuMicroseconds()
        send(text, from: connection, at: now)
        decisions.append((cpuMicroseconds() - start, arrival, message))
      }
    }
    #expect(state.members(of: table).count == spectators + 1)
    let slowest = decisions.sorted { $0.microseconds > $1.microseconds }
    for decision in slowest.prefix(8) {
      print(
        "slowest: \(Int(decision.microseconds)) µs, \(decision.message) of arrival \(decision.arrival)"
      )
    }
    let median = slowest[slowest.count / 2].microseconds
    let total = decisions.reduce(0) { $0 + $1.microseconds }
    print(
      "decisions: \(decisions.count), over 1 ms: \(slowest.count { $0.microseconds > 1_000 }),"
        + " over 0.5 ms: \(slowest.count { $0.microseconds > 500 }),"
        + " median: \(String(format: "%.1f", median)) µs, total: \(Int(total / 1_000)) ms")
  }
}
