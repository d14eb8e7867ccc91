import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// The `hint` message: a match on the board, found by the game's own card type (a chain set,
/// chain card first, in Set-Chain), and `countMatches`, how many there are, answered to the
/// player alone at a face-up table; refused, with a typed reason, wherever the web client offers
/// no hint.
@Suite struct HintLobbyTests {
  let c1 = ConnectionID(1)
  let c2 = ConnectionID(2)
  let c3 = ConnectionID(3)

  /// Every match a player may claim at `table` now, by brute force over its board (and chain).
  static func claimable<Card: WireCard>(_ table: TableState<Card>) -> [Set<Int>] {
    let game = table.game
    let size = game.settings.matchSize
    var found: [Set<Int>] = []
    func walk(_ start: Int, _ chosen: [Card], _ count: Int) {
      if chosen.count == count {
        if game.isChained {
          for anchor in game.chain where Card.matchScore([anchor] + chosen) > 0 {
            found.append(Set(([anchor] + chosen).map(\.id)))
          }
        } else if Card.matchScore(chosen) > 0 {
          found.append(Set(chosen.map(\.id)))
        }
        return
      }
      guard start < game.playableCards.count else { return }
      for index in start..<game.playableCards.count {
        walk(index + 1, chosen + [game.playableCards[index]], count)
      }
    }
    walk(0, [], game.isChained ? size - 1 : size)
    return found
  }

  /// Plays a solo table of `game` (cards `Card`) through the lobby: asks for a hint, checks it
  /// against brute force on the table's board, then takes it (or, every third round, deals
  /// again), `rounds` times.
  func playWithHints<Card: WireCard>(
    _ game: String, _: Card.Type, rounds: Int = 9, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let harness = LobbyHarness()
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    let snapshot = try only(
      await harness.send(#"{"type":"playSolo","id":2,"game":"\#(game)"}"#, from: c1), to: c1)
    let id = try #require(snapshot["table"]?["id"]?.stringValue)
    var next = 10
    for round in 0..<rounds {
      let table = try #require(harness.lobby.state.table(id) as? TableState<Card>)
      if table.game.isOver { break }
      let all = Self.claimable(table)
      let answer = try only(
        await harness.send(#"{"type":"hint","id":\#(next)}"#, from: c1), to: c1)
      #expect(answer["type"] == "hint", "\(answer.text)", sourceLocation: sourceLocation)
      #expect(answer["replyTo"] == .int(next), sourceLocation: sourceLocation)
      let cards = try #require(answer["cards"]?.elements?.compactMap { $0.intValue })
      #expect(
        all.contains(Set(cards)), "\(game): \(cards) is none of \(all)",
        sourceLocation: sourceLocation)
      #expect(cards.count == table.game.settings.matchSize, sourceLocation: sourceLocation)
      if table.game.isChained {
        #expect(table.game.chain.map(\.id).contains(cards[0]), "the chain card first")
      }
      // The practice count is every match the player may claim.
      next += 1
      let count = try only(
        await harness.send(#"{"type":"countMatches","id":\#(next)}"#, from: c1), to: c1)
      #expect(count["type"] == "matchCount" && count["replyTo"] == .int(next))
      #expect(count["count"] == .int(all.count), "\(game): \(count.text)")
      // Nothing changed: no version, no diff.
      #expect((harness.lobby.state.table(id)?.version) == table.version)
      next += 1
      if round % 3 == 2 {
        _ = try await harness.send(#"{"type":"redeal","id":\#(next)}"#, from: c1)
      } else {
        for card in cards {
          _ = try await harness.send(#"{"type":"choose","id":\#(next),"card":\#(card)}"#, from: c1)
          next += 1
        }
        let after = try #require(harness.lobby.state.table(id) as? TableState<Card>)
        #expect(
          after.game.players[0].matches == table.game.players[0].matches + 1, "the hint was a match"
        )
      }
      next += 1
    }
  }

  @Test func setsHintIsASetOnTheBoard() async throws {
    try await playWithHints("set", SetCard.self)
  }

  @Test func setJuniorsHintIsASetOfItsCards() async throws {
    try await playWithHints("setJunior", JuniorSetCard.self)
  }

  @Test func ultraSetsHintIsAnUltraSet() async throws {
    try await playWithHints("ultraSet", UltraSetCard.self, rounds: 6)
  }

  @Test func setChainsHintIsAChainSetWithItsChainCardFirst() async throws {
    try await playWithHints("setChain", SetChainCard.self, rounds: 12)
  }

  @Test(arguments: ["hint", "countMatches"])
  func helpIsRefusedWhereNoneIsOffered(_ type: String) async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let harness = LobbyHarness(configuration: configuration)
    let hint = #"{"type":"\#(type)","id":7}"#
    // Before hello, and without a table.
    expectError(try only(await harness.send(hint, from: c1), to: c1), .helloRequired, replyTo: 7)
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Bob"}"#, from: c2)
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Cy"}"#, from: c3)
    expectError(try only(await harness.send(hint, from: c1), to: c1), .notAtTable, replyTo: 7)
    // A face-down game, alone: its cards are secret.
    for game in ["matchismo", "concentration"] {
      _ = try await harness.send(#"{"type":"playSolo","id":2,"game":"\#(game)"}"#, from: c1)
      expectError(try only(await harness.send(hint, from: c1), to: c1), .noHints, replyTo: 7)
    }
    // A race: no hints for anyone, and a spectator plays nothing.
    let created = try only(
      await harness.send(#"{"type":"createTable","id":3,"game":"set","seats":2}"#, from: c1),
      to: c1)
    let code = try #require(created["table"]?["code"]?.stringValue)
    _ = try await harness.send(#"{"type":"join","id":4,"code":"\#(code)"}"#, from: c2)
    _ = try await harness.send(#"{"type":"spectate","id":5,"code":"\#(code)"}"#, from: c3)
    expectError(try only(await harness.send(hint, from: c1), to: c1), .hintsAlone, replyTo: 7)
    expectError(try only(await harness.send(hint, from: c3), to: c3), .spectator, replyTo: 7)
  }

  @Test func aGameThatIsOverGivesNoHint() async throws {
    let harness = LobbyHarness()
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    let snapshot = try only(
      await harness.send(#"{"type":"playSolo","id":2,"game":"setJunior"}"#, from: c1), to: c1)
    let id = try #require(snapshot["table"]?["id"]?.stringValue)
    // Every hint taken: Set Junior's 27 cards run out in at most nine sets.
    for _ in 0..<9 {
      let answer = try only(await harness.send(#"{"type":"hint","id":3}"#, from: c1), to: c1)
      guard answer["type"] == "hint" else { break }
      for card in answer["cards"]?.elements?.compactMap({ $0.intValue }) ?? [] {
        _ = try await harness.send(#"{"type":"choose","id":4,"card":\#(card)}"#, from: c1)
      }
    }
    let table = try #require(harness.lobby.state.table(id) as? TableState<JuniorSetCard>)
    #expect(table.game.isOver)
    expectError(
      try only(await harness.send(#"{"type":"hint","id":5}"#, from: c1), to: c1), .gameOver,
      replyTo: 5)
  }
}
