import Model
import Protocol
import Synchronization
import TestSupport
import Testing

@testable import Lobby

/// An arena is journaled whole with its games' tables: a lobby opened again from the journal
/// has every point, the games in progress, and scores a game that ends after the restart.
@Suite struct ArenaJournalTests {
  let ann = ConnectionID(1)
  let bob = ConnectionID(2)

  /// A journaling lobby and the journal it wrote.
  struct Journaled {
    var state: LobbyState
    var image = JournalImage()
    var sent: [(JSONValue, [ConnectionID])] = []

    static func entropy() -> LobbyEntropy {
      let tokens = TokenSequence()
      let codes = Mutex(SeededGenerator(seed: 7))
      return LobbyEntropy(
        seed: { 42 }, token: { tokens.next() }, below: { n in codes.withLock { $0.below(n) } })
    }

    init() {
      var configuration = LobbyConfiguration()
      configuration.journal = true
      configuration.countdown = 0
      state = LobbyState(configuration: configuration, entropy: Self.entropy())
    }

    mutating func take(_ actions: [LobbyAction]) {
      for action in actions {
        switch action {
        case .journal(let entry): image.write(entry)
        case .send(let frame, let to), .sendToCrowd(let frame, let to),
          .sendAtOnce(let frame, let to):
          sent.append((JSONValue.parse(frame.payload) ?? .null, to))
        default: break
        }
      }
    }

    mutating func send(_ text: String, from connection: ConnectionID, at now: Double) {
      take(state.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: now))
      take(state.advance(to: now))
    }

    mutating func tick(_ now: Double) { take(state.advance(to: now)) }

    /// The last message of `type` sent to `connection`.
    func last(_ type: String, to connection: ConnectionID) -> JSONValue? {
      sent.last { $0.1.contains(connection) && $0.0["type"] == .string(type) }?.0
    }
  }

  @Test func aRestartKeepsEveryPointAndTheGameInProgressIsScoredAfterIt() throws {
    var lobby = Journaled()
    lobby.send(#"{"type":"hello","name":"Ann","player":"ann-player-token"}"#, from: ann, at: 0)
    lobby.send(#"{"type":"hello","name":"Bob","player":"bob-player-token"}"#, from: bob, at: 0)
    lobby.send(
      #"{"type":"createArena","game":"set","minutes":10,"startsIn":0}"#, from: ann, at: 0)
    let code = try #require(lobby.last("arena", to: ann)?["arena"]?["code"]?.stringValue)
    let arenaID = try #require(lobby.last("arena", to: ann)?["arena"]?["id"]?.stringValue)
    lobby.send(#"{"type":"joinArena","code":"\#(code)"}"#, from: bob, at: 0)
    lobby.tick(1)
    // Ann wins the first sprint by five sets.
    let first = try #require(lobby.last("arenaGame", to: ann)?["table"]?.stringValue)
    for _ in 0..<5 {
      let table = try #require(lobby.state.table(first) as? TableState<SetCard>)
      for card in aSet(on: table) {
        lobby.send(#"{"type":"choose","card":\#(card)}"#, from: ann, at: 1)
      }
    }
    lobby.tick(2.5)
    let second = try #require(lobby.last("arenaGame", to: bob)?["table"]?.stringValue)
    #expect(second != first)
    // Bob takes a set in the second, then the server stops.
    let table = try #require(lobby.state.table(second) as? TableState<SetCard>)
    for card in aSet(on: table) {
      lobby.send(#"{"type":"choose","card":\#(card)}"#, from: bob, at: 3)
    }

    let contents = lobby.image.contents
    #expect(contents.arenas.map(\.id) == [arenaID])
    var restarted = LobbyState(
      configuration: lobby.state.configuration, entropy: Journaled.entropy())
    try restarted.restore(contents, now: 10)
    let arena = try #require(restarted.arenaBook.arenas[arenaID])
    #expect(arena.entrants.values.map(\.points).sorted() == [0, 2])
    #expect(arena.games.keys.sorted() == [second])
    let reopened = try #require(restarted.table(second) as? TableState<SetCard>)
    #expect(reopened.sprint?.arena == arenaID && reopened.phase == .playing)
    #expect(reopened.game.players.map(\.matches) == [0, 1])
    // Nobody comes back: the held seats are given back after the grace, the sprint is
    // forfeited by both, and the arena scores it (a loss each) and ends on time.
    _ = restarted.advance(to: 10 + 61)
    let after = try #require(restarted.arenaBook.arenas[arenaID])
    #expect(after.games.isEmpty)
    #expect(after.entrants.values.map(\.played).sorted() == [2, 2])
  }
}
