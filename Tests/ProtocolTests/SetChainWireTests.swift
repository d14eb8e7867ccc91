import Model
import Protocol
import TestSupport
import Testing

/// Set-Chain on the wire: its cards are Set's, its snapshot carries `chain` (the previous set,
/// beside the board) and a match's diff the `chain` event with the new chain's cards.
@Suite struct SetChainWireTests {
  /// A game whose first set is taken, and the events of the claim.
  static func chained(seed: UInt64) throws -> (
    game: CardMatchingGame<SetChainCard>, events: [GameEvent<SetChainCard>]
  ) {
    var game = CardMatchingGame<SetChainCard>(settings: .setChain(), seed: seed)
    let first = try #require(SetChainCard.allSets(in: game.board).first)
    var events: [GameEvent<SetChainCard>] = []
    for card in first { events += try game.apply(.choose(seat: 0, card: card.id)) }
    return (game, events)
  }

  @Test func aSetChainCardIsTheSetCardOnTheWire() {
    #expect(
      SetChainCard.fullDeck[40].wireObject.text
        == #"{"id":40,"number":2,"symbol":"squiggle","shading":"striped","color":"green"}"#)
    for card in SetChainCard.fullDeck {
      #expect(card.wireObject == card.card.wireObject)
      var out = JSONWriter()
      card.writeWireObject(to: &out)
      #expect(out.bytes == card.card.wireObject.encoded)
      #expect(card.statusRun == card.card.statusRun)
      #expect(card.spokenName == card.card.spokenName)
    }
    #expect(SetChainCard.gameName == "setChain")
    #expect(
      SetChainCard.newGameLine
        == [.text("Find a set: after it, each set takes one card of the one before!")])
  }

  @Test func theSnapshotCarriesTheChain() throws {
    let fresh = CardMatchingGame<SetChainCard>(settings: .setChain(), seed: 3)
    let before = ServerMessage.snapshot(
      replyTo: nil, tableID: "t1", version: 0, you: 0, game: fresh, names: ["Ada"],
      status: SetChainCard.newGameLine)
    #expect(before["table"]?["game"] == "setChain")
    #expect(before["table"]?["chain"] == .array([]))
    // Right after the board.
    let keys = try #require(before["table"]).keys
    #expect(keys.firstIndex(of: "chain") == keys.firstIndex(of: "board").map { $0 + 1 })

    let (game, _) = try Self.chained(seed: 3)
    let after = ServerMessage.snapshot(
      replyTo: nil, tableID: "t1", version: 3, you: 0, game: game, names: ["Ada"], status: [])
    #expect(after["table"]?["chain"] == .array(game.chain.map(\.wireObject)))
    #expect(game.chain.count == 3)
    // The chain's cards are not on the board.
    let board = try #require(after["table"]?["board"]?.elements)
    #expect(game.chain.allSatisfy { !board.contains($0.wireObject) })

    // Games that do not chain show no chain.
    let set = CardMatchingGame<SetCard>(settings: .set(), seed: 3)
    let setSnapshot = ServerMessage.snapshot(
      replyTo: nil, tableID: "t2", version: 0, you: 0, game: set, names: ["Ada"], status: [])
    #expect(setSnapshot["table"]?["chain"] == nil)
  }

  @Test func aMatchsDiffCarriesTheNewChain() throws {
    let (game, events) = try Self.chained(seed: 5)
    let diff = Written.json(
      Written.diff(version: 3, replyTo: .int(3), events: events, names: ["Ada"]))
    let encoded = try #require(diff["events"]?.elements)
    let chain = try #require(encoded.first { $0["kind"] == "chain" })
    #expect(Set(chain.keys) == ["kind", "cards"])
    #expect(chain["cards"] == .array(game.chain.map(\.wireObject)))
    // It follows the match and its score, before the board's replacements.
    let kinds = encoded.compactMap { $0["kind"]?.stringValue }
    let match = try #require(kinds.firstIndex(of: "match"))
    let at = try #require(kinds.firstIndex(of: "chain"))
    #expect(match < at && at < (kinds.firstIndex(of: "replace") ?? kinds.count))
    // The bytes, in the documented order.
    let example = GameEvent<SetChainCard>.chained([0, 27, 54].map { SetChainCard.fullDeck[$0] })
    #expect(
      Written.text(example)
        == #"{"kind":"chain","cards":[{"id":0,"number":1,"symbol":"diamond","shading":"solid","color":"red"},{"id":27,"number":2,"symbol":"diamond","shading":"solid","color":"red"},{"id":54,"number":3,"symbol":"diamond","shading":"solid","color":"red"}]}"#
    )
    // The status line says the match; the chain event adds nothing to it.
    let status = StatusLine.runs(for: events, names: ["Ada"])
    #expect(Array(status.prefix(2)) == [.name("Ada", seat: 0), .text(" matched ")])
    #expect(StatusLine.runs(for: [example], names: []).isEmpty)
  }

  @Test func theChainRuleHasItsErrorCode() {
    #expect(ErrorCode(rawValue: "chainRule") == .chainRule)
  }
}
