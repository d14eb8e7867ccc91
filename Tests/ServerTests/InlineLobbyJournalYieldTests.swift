import Lobby
import Logging
import Store
import Testing

@testable import Server

/// The service thread and the journal's writer on a single core (``InlineLobby/passEnded()``).
@Suite struct InlineLobbyJournalYieldTests {
  /// On a single core a pass gives the core to a writer whose work has waited; not to one
  /// with fresh work, with none, down, or with more cores.
  @Test func aPassGivesTheCoreToAWriterWhoseWorkHasWaited() {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    let single = InlineLobby(
      state: LobbyState(entropy: .system), outlets: LobbyOutlets(journal: writer),
      journalYieldAfter: 0)
    let fresh = InlineLobby(
      state: LobbyState(entropy: .system), outlets: LobbyOutlets(journal: writer),
      journalYieldAfter: 3600)
    let many = InlineLobby(
      state: LobbyState(entropy: .system), outlets: LobbyOutlets(journal: writer),
      journalYieldAfter: nil)
    let lobbies = [single, fresh, many]
    // No work.
    for lobby in lobbies { lobby.passEnded() }
    #expect(lobbies.map(\.journalYields) == [0, 0, 0])
    // Never started, the writer keeps what is queued: it has work at every pass's end.
    _ = writer.append([.tableClosed("t1")], wake: false)
    for lobby in lobbies {
      lobby.passEnded()
      lobby.passEnded()
    }
    #expect(lobbies.map(\.journalYields) == [2, 0, 0])
    // Down: the writer retries on its own.
    writer.failing.store(true, ordering: .relaxed)
    for lobby in lobbies { lobby.passEnded() }
    #expect(lobbies.map(\.journalYields) == [2, 0, 0])
  }

  /// What the loop decided after the pass ended (new connections let in, players read between
  /// them) owes the writer a wake, paid before the loop sleeps, not at the next pass's end.
  @Test func theWakeOwedAfterThePassIsPaidBeforeTheLoopWaits() {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    let lobby = InlineLobby(
      state: LobbyState(entropy: .system), outlets: LobbyOutlets(journal: writer))
    lobby.passEnded()
    _ = writer.append([.tableClosed("t1")], wake: false)
    #expect(writer.owesWake)
    lobby.loopWillWait()
    #expect(!writer.owesWake)
  }

  /// While the service thread is pressed its passes run long: each decision wakes the writer
  /// at once. Otherwise the wake waits for the pass's end (or for entries older than
  /// ``InlineLobby/journalWakeDelay`` at a later decision).
  @Test(arguments: [true, false]) func aPressedLoopsDecisionWakesTheWriterAtOnce(pressed: Bool) {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    let lobby = InlineLobby(
      state: LobbyState(entropy: .system), outlets: LobbyOutlets(journal: writer),
      loopPressed: { pressed })
    let now = MonotonicClock.now()
    _ = writer.append([.tableClosed("t1")], wake: false)
    var commands: [TransportCommand] = []
    lobby.handle(
      .message(ConnectionID(rawValue: 1), Array("{".utf8), receivedAt: now), now: now,
      commands: &commands)
    #expect(writer.owesWake == !pressed)
  }

  /// The default: a single core gives the writer the core once its work has waited as long as a
  /// pass's entries may wait for its wake; more cores never.
  @Test func theDefaultFollowsTheCores() {
    let lobby = InlineLobby(state: LobbyState(entropy: .system))
    let expected = UsableCores.count == 1 ? InlineLobby.journalWakeDelay : nil
    #expect(lobby.journalYieldAfter == expected)
  }
}
