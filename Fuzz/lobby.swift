// fuzz-modules: Model Protocol Lobby
// fuzz-coverage: edges
// fuzz-max-len: 64

/// libFuzzer's entry point: plays the input as a sequence of events against one `LobbyState`
/// (client messages from a few connections, disconnects, time moving on) and checks the lobby's
/// invariants after every event. A broken invariant stops the run with a crash report and the
/// input that led to it.
///
/// Everything the harness does per event is kept cheap, because under AddressSanitizer and the
/// fuzzer's instrumentation it is paid on every one of the events of every input: messages are
/// written as bytes into reused buffers, cards are read off the table's game rather than out of
/// an encoded snapshot, frames are checked in place without copying them, and the checks build
/// no sets. The target is built with edge coverage only (`fuzz-coverage: edges`): its bytes
/// pick events and template fields, so tracing every comparison of the lobby, the encoder and
/// the harness (a third of the time per input) gave libFuzzer little it could use; the decoder
/// target, whose bytes are the frames themselves, keeps comparison tracing.
///
/// Even so, one event costs about 30 µs under AddressSanitizer, nearly all of it in the lobby
/// (encoding frames, dealing tables), so the time per input is the number of events it plays.
/// Inputs are at most 64 bytes (`fuzz-max-len`). A message takes 4 to 6 bytes, a move 5, a
/// clock step 2 and a disconnect 1, so 64 bytes hold about a dozen events: enough for three
/// players at two tables (a quick match and a solo game), a join or a resume, a disconnect and
/// a few moves in between; 48 bytes held barely one two-seat game and its first moves. With 8192
/// bytes libFuzzer grew its inputs to the 200-event cap, and an input cost a hundred times more.
///
/// The first byte picks how the lobby is run, as the server can run it: one state that decides
/// every message itself (the inline lobby), or tables spread over 1, 2 or 3 shards with every
/// seated player's move decided on its table's shard alone, as the sharded executors decide it
/// (``LobbyState/choose(_:replyTo:from:ticket:now:)``); a turn-based table's moves
/// (Concentration) stay with the whole state, as on the server. Tables are opened for Set, Set
/// Junior, UltraSet, Set-Chain, Matchismo, Concentration or a game the server does not deal, with or
/// without fuzzed table settings. Half the first bytes also turn the journal on: every entry
/// goes into a `JournalImage` as the writer would write it, two event kinds take the journal
/// down or bring it back (a player's move journaled meanwhile is a crash) and stop the server
/// and start it again from the journal, which must bring back every open table as it was
/// (players, board, deck, selections, scores, history) and no closed one
/// (`Fuzz/lobby/LobbyRun+Journal.swift`).
///
/// The run (``LobbyRun``), the messages it writes, the cards it picks, the invariants it checks
/// and the frame check are in `Fuzz/lobby/`, compiled with this file (see scripts/fuzz.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func lobbyFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  var run = LobbyRun(input: ByteReader(bytes))
  run.play()
  return 0
}
