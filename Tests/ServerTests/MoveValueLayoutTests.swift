import Lobby
import Testing

@testable import Server

/// The values every move goes through are copied and moved several times on its way from the
/// lobby to the journal and the sockets: their rare, large cases are boxed (`indirect`), so
/// that a move's own cases are not carried in a table record's space (a `LobbyAction` was 376
/// bytes, 72 now; `scripts/callgrind-moves.sh`, docs/BENCHMARKS.md).
@Suite struct MoveValueLayoutTests {
  @Test func aMovesJournalEntryIsNoBiggerThanTheMoveItself() {
    #expect(MemoryLayout<JournalEntry>.size <= MemoryLayout<JournalMove>.size + 8)
  }

  @Test func aLobbyActionIsNoBiggerThanAMovesJournalEntry() {
    #expect(MemoryLayout<LobbyAction>.size <= MemoryLayout<JournalMove>.size + 8)
  }

  @Test func aTransportCommandIsNoBiggerThanAFrameAndItsRecipients() {
    // A close (a connection, a code and a reason) is the largest case kept inline.
    #expect(MemoryLayout<TransportCommand>.size <= 40)
  }
}
