import Protocol
import Store
import TestSupport
import Testing

@testable import Lobby
@testable import Model

/// The journal from the lobby's side: every change is written down before the frames that show
/// it, tokens only as hashes, and a lobby rebuilt from what was written plays on where the old
/// one stopped.
@Suite struct JournalTests {
  let ada = ConnectionID(1)
  let bob = ConnectionID(2)
  let eve = ConnectionID(3)

  /// A lobby that journals, with fixed entropy and SHA-256 token hashes, and the store its
  /// entries go to.
  final class Journaled: @unchecked Sendable {
    var state: LobbyState
    let store = MemoryJournalStore()
    var now: Double = 0
    /// Every message sent, by connection.
    var inbox: [ConnectionID: [JSONValue]] = [:]
    /// Every journal entry, in order.
    var written: [JournalEntry] = []

    init(seed: UInt64 = 42, tokens prefix: String = "token") {
      var configuration = LobbyConfiguration()
      configuration.journal = true
      configuration.countdown = 0
      configuration.lobbyFlushInterval = 0
      let counter = Counter()
      let entropy = LobbyEntropy(
        seed: { seed }, token: { "\(prefix)-\(counter.next())" }, below: { _ in 0 },
        hash: TokenDigest.hex)
      state = LobbyState(configuration: configuration, entropy: entropy)
    }

    /// Carries out `actions` as the server would: each batch's journal entries are written
    /// before any of its frames is delivered. Returns the frames' messages.
    @discardableResult
    func run(_ actions: [LobbyAction]) throws -> [(ConnectionID, JSONValue)] {
      var delivered: [(ConnectionID, JSONValue)] = []
      var entries: [JournalEntry] = []
      var sawFrame = false
      for action in actions {
        switch action {
        case .journal(let entry):
          #expect(!sawFrame, "a journal entry after a frame of its batch: \(entry)")
          entries.append(entry)
        case .send(let frame, let connections), .sendToCrowd(let frame, let connections):
          if !sawFrame {
            try store.write(entries)
            written += entries
            sawFrame = true
          }
          let message = try #require(JSONValue.parse(frame.payload))
          for connection in connections {
            inbox[connection, default: []].append(message)
            delivered.append((connection, message))
          }
        case .sendAtOnce(let frame, let connections):
          // Shows nothing the journal keeps: not held behind the batch's entries.
          let message = try #require(JSONValue.parse(frame.payload))
          for connection in connections {
            inbox[connection, default: []].append(message)
            delivered.append((connection, message))
          }
        case .close, .closeAtOnce, .publish, .missedGuess, .findSession, .log, .connect:
          // No cluster here.
          break
        case .query(let request):
          // Answered from the store once the batch's entries are written, as RecordReader does.
          if !sawFrame {
            try store.write(entries)
            written += entries
            sawFrame = true
          }
          let message = try #require(JSONValue.parse(store.answer(request).payload))
          inbox[request.connection, default: []].append(message)
          delivered.append((request.connection, message))
        }
      }
      if !sawFrame {
        try store.write(entries)
        written += entries
      }
      return delivered
    }

    @discardableResult
    func send(_ text: String, from connection: ConnectionID) throws -> [JSONValue] {
      try run(
        state.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: now)
      )
      .filter { $0.0 == connection }.map(\.1)
    }
  }

  final class Counter: @unchecked Sendable {
    private var value = 0
    func next() -> Int {
      value += 1
      return value
    }
  }

  @Test func everyChangeIsWrittenBeforeItsFramesAndTokensOnlyAsHashes() throws {
    let lobby = Journaled()
    let welcome = try lobby.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: ada)
    let token = try #require(welcome.first?["session"]?.stringValue)
    let snapshot = try lobby.send(#"{"type":"playSolo","id":2,"game":"set"}"#, from: ada)
    let card = try #require(snapshot.first?["table"]?["board"]?.elements?.first?["id"]?.intValue)
    let before = lobby.written.count
    let diff = try lobby.send(#"{"type":"choose","id":3,"card":\#(card)}"#, from: ada)
    #expect(diff.first?["type"] == "diff")
    let moves = lobby.written[before...].compactMap { entry -> JournalMove? in
      if case .move(let move) = entry { move } else { nil }
    }
    #expect(moves.map(\.move) == [.choose(seat: 0, card: card)])
    #expect(moves.first?.version == diff.first?["version"]?.intValue)
    // The journal knows the session by its hash only.
    let sessions = lobby.written.compactMap { entry -> SessionRecord? in
      if case .session(let session) = entry { session } else { nil }
    }
    #expect(sessions.first?.token == TokenDigest.hex(token))
    #expect(!"\(lobby.written)".contains(token), "the raw token was journaled")
  }

  /// Random play at a table of each game for two, a crash at a random moment (whatever was
  /// written is all there is), a new lobby from the journal: the game is the same, the version
  /// goes on, both players resume with their tokens and play on.
  @Test(arguments: ["set", "matchismo", "concentration", "setJunior", "ultraSet", "setChain"])
  func aRestartedLobbyPlaysOnWhereTheOldOneStopped(_ game: String) throws {
    let old = Journaled()
    let adaToken = try #require(
      try old.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: ada).first?["session"]?
        .stringValue)
    let bobToken = try #require(
      try old.send(#"{"type":"hello","id":1,"name":"Bob"}"#, from: bob).first?["session"]?
        .stringValue)
    _ = try old.send(#"{"type":"hello","id":1,"name":"Eve"}"#, from: eve)
    let created = try old.send(
      #"{"type":"createTable","id":2,"game":"\#(game)","seats":2}"#, from: ada)
    let id = try #require(created.first?["table"]?["id"]?.stringValue)
    _ = try old.send(#"{"type":"join","id":3,"table":"\#(id)"}"#, from: bob)
    _ = try old.send(#"{"type":"spectate","id":4,"table":"\#(id)"}"#, from: eve)
    var random = SeededGenerator(seed: 99)
    var accepted = 0
    for step in 0..<120 {
      old.now += 0.25
      try old.run(old.state.advance(to: old.now))
      let table = try #require(old.state.table(id))
      let slots =
        (try #require(
          table.snapshot(replyTo: nil, you: nil, now: old.now)["table"]?["board"]?.elements))
        .compactMap { $0["id"]?.intValue }
      guard !slots.isEmpty else { break }
      let connection = random.below(2) == 0 ? ada : bob
      let answer = try old.send(
        #"{"type":"choose","id":\#(step + 10),"card":\#(slots[random.below(slots.count)])}"#,
        from: connection)
      if answer.first?["type"] == "diff" { accepted += 1 }
    }
    #expect(accepted > 10)
    let before = try #require(old.state.table(id))

    // The crash: a new lobby from the journal alone.
    let restarted = Journaled(seed: 7, tokens: "fresh")
    restarted.now = 1000
    try restarted.state.restore(try old.store.load(), now: restarted.now)
    let after = try #require(restarted.state.table(id))
    func gameView(_ table: any TableArbiter) -> JSONValue? {
      // Everything but the status line and who is connected.
      guard case .object(let members)? = table.snapshot(replyTo: nil, you: nil, now: 0)["table"]
      else { return nil }
      return .object(
        members.filter {
          !["status", "version", "players", "spectators", "turnLeft", "countdown"].contains($0.0)
        })
    }
    #expect(gameView(after) == gameView(before))
    #expect(after.version > before.version)
    func scores(_ table: any TableArbiter) -> [JSONValue] {
      (table.snapshot(replyTo: nil, you: nil, now: 0)["table"]?["players"]?.elements ?? []).map {
        .array([
          $0["seat"] ?? .null, $0["name"] ?? .null, $0["score"] ?? .null, $0["matches"] ?? .null,
        ])
      }
    }
    #expect(scores(after) == scores(before))

    // Both players come back with their tokens; Ada's snapshot has the same scores.
    let adaBack = try restarted.send(
      #"{"type":"hello","id":1,"resume":"\#(adaToken)","version":3}"#, from: ConnectionID(11))
    #expect(adaBack.first?["resumed"] == .bool(true))
    #expect(adaBack.first?["session"]?.stringValue == adaToken)
    let snapshot = try #require(adaBack.first { $0["type"] == "snapshot" })
    #expect(snapshot["table"]?["you"] == .int(0))
    let bobBack = try restarted.send(
      #"{"type":"hello","id":1,"resume":"\#(bobToken)"}"#, from: ConnectionID(12))
    #expect(bobBack.first?["resumed"] == .bool(true))
    #expect(bobBack.contains { $0["type"] == "snapshot" && $0["table"]?["you"] == .int(1) })
    // An unknown token is a new session, as always.
    let stranger = try restarted.send(
      #"{"type":"hello","id":1,"resume":"nobody"}"#, from: ConnectionID(13))
    #expect(stranger.first?["resumed"] == .bool(false))
  }
}

extension JournalTests {
  /// While the journal cannot be written, moves and re-deals are refused with `unavailable` and
  /// change nothing; the refusal is sent at once (not behind frames waiting for the journal);
  /// once the journal can be written, moves are taken again.
  @Test func movesAreRefusedWhileTheJournalIsDown() throws {
    let lobby = Journaled()
    _ = try lobby.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: ada)
    let snapshot = try lobby.send(#"{"type":"playSolo","id":2,"game":"set"}"#, from: ada)
    let card = try #require(snapshot.first?["table"]?["board"]?.elements?.first?["id"]?.intValue)
    let id = try #require(snapshot.first?["table"]?["id"]?.stringValue)
    let version = try #require(lobby.state.table(id)?.version)
    lobby.state.journalAvailable(false)
    #expect(lobby.state.playingShard(of: ada) == nil, "a move took the shard's fast path")
    for text in [
      #"{"type":"choose","id":3,"card":\#(card)}"#, #"{"type":"redeal","id":4}"#,
    ] {
      let actions = lobby.state.receive(
        ClientMessageDecoder.decode(Array(text.utf8)), from: ada, now: lobby.now)
      #expect(actions.count == 1)
      guard case .sendAtOnce(_, let to) = actions.first else {
        Issue.record("the refusal is not sent at once: \(actions)")
        continue
      }
      #expect(to == [ada])
      let refused = try lobby.run(actions).map(\.1)
      #expect(refused.first?["type"] == "error")
      #expect(refused.first?["code"] == "unavailable")
    }
    #expect(lobby.state.table(id)?.version == version)
    lobby.state.journalAvailable(true)
    let accepted = try lobby.send(#"{"type":"choose","id":5,"card":\#(card)}"#, from: ada)
    #expect(accepted.first?["type"] == "diff")
  }
}
