import Model
import Protocol
import TestSupport
import Testing

/// Set Junior's and UltraSet's cards on the wire: drawn as Set cards, named by their own games.
@Suite struct SetVariantWireTests {
  @Test func aJuniorCardIsASolidSetCardWithItsOwnID() throws {
    let card = JuniorSetCard(number: 1, symbol: 1, color: 2)
    #expect(card.id == 14)
    #expect(
      card.wireObject.text
        == #"{"id":14,"number":2,"symbol":"squiggle","shading":"solid","color":"purple"}"#)
    // Set's members, in Set's order.
    #expect(card.wireObject.keys == SetCard.fullDeck[0].wireObject.keys)
    for junior in JuniorSetCard.fullDeck {
      var out = JSONWriter()
      junior.writeWireObject(to: &out)
      #expect(out.bytes == junior.wireObject.encoded)
      #expect(junior.wireObject["shading"] == "solid")
      // The face of the Set card it looks like, under its own id.
      var face = junior.face.wireObject
      if case .object(var members) = face {
        members[0] = ("id", .int(junior.id))
        face = .object(members)
      }
      #expect(junior.wireObject == face)
      #expect(
        junior.faceObject(handle: 3, faceUp: true).keys == ["id", "faceUp"] + face.keys.dropFirst())
    }
    #expect(JuniorSetCard.gameName == "setJunior")
    #expect(JuniorSetCard.newGameLine == [.text("Find a set!")])
  }

  @Test func aJuniorCardsRunIsASolidSetCardsSaidWithoutItsShading() {
    let card = JuniorSetCard(number: 1, symbol: 1, color: 2)
    let run = card.statusRun
    #expect(
      run.json.text
        == ##"{"card":14,"text":"∿∿","symbol":"squiggle","count":2,"color":"#6a3fb5","shading":"solid","alpha":1,"stroke":0,"label":"two purple squiggles"}"##
    )
    #expect(JuniorSetCard(number: 0, symbol: 0, color: 0).spokenName == "one red diamond")
    for junior in JuniorSetCard.fullDeck {
      var expected = junior.face.statusRun
      expected.card = junior.id
      expected.label = junior.spokenName
      #expect(junior.statusRun == expected)
    }
    #expect(Set(JuniorSetCard.fullDeck.map(\.spokenName)).count == 27)
  }

  @Test func anUltraSetCardIsTheSetCardOnTheWire() {
    let card = UltraSetCard.fullDeck[40]
    #expect(
      card.wireObject.text
        == #"{"id":40,"number":2,"symbol":"squiggle","shading":"striped","color":"green"}"#)
    for ultra in UltraSetCard.fullDeck {
      #expect(ultra.wireObject == ultra.card.wireObject)
      var out = JSONWriter()
      ultra.writeWireObject(to: &out)
      var set = JSONWriter()
      ultra.card.writeWireObject(to: &set)
      #expect(out.bytes == set.bytes)
      #expect(ultra.statusRun == ultra.card.statusRun)
      #expect(ultra.spokenName == ultra.card.spokenName)
      #expect(ultra.faceMembers.map(\.0) == ultra.card.faceMembers.map(\.0))
    }
    #expect(UltraSetCard.gameName == "ultraSet")
    #expect(
      UltraSetCard.newGameLine
        == [.text("Find an UltraSet: two pairs that need the same third card!")])
  }

  /// A snapshot and a diff of each game name the game and show its cards as Set cards.
  @Test func snapshotsAndDiffsNameTheGame() throws {
    let junior = CardMatchingGame<JuniorSetCard>(settings: .setJunior(), seed: 4)
    let snapshot = ServerMessage.snapshot(
      replyTo: nil, tableID: "t1", version: 0, you: 0, game: junior, names: ["Ada"],
      status: JuniorSetCard.newGameLine)
    let table = try #require(snapshot["table"])
    #expect(table["game"] == "setJunior")
    #expect(table["deckCount"] == .int(18))
    #expect(table["settings"]?["boardSize"] == .int(9))
    #expect(table["settings"]?["matchSize"] == .int(3))
    let board = try #require(table["board"]?.elements)
    #expect(board.map(\.keys).allSatisfy { $0 == ["id", "number", "symbol", "shading", "color"] })
    #expect(board.allSatisfy { $0["shading"] == "solid" })

    var ultra = CardMatchingGame<UltraSetCard>(settings: .ultraSet(), seed: 4)
    let ultraSnapshot = ServerMessage.snapshot(
      replyTo: nil, tableID: "t2", version: 0, you: 0, game: ultra, names: ["Ada"],
      status: UltraSetCard.newGameLine)
    #expect(ultraSnapshot["table"]?["game"] == "ultraSet")
    #expect(ultraSnapshot["table"]?["settings"]?["matchSize"] == .int(4))
    #expect(
      ultraSnapshot["table"]?["board"]?.elements == ultra.board.map(\.card.wireObject))
    let match = try #require(UltraSetCard.allUltraSets(in: ultra.board).first)
    var events: [GameEvent<UltraSetCard>] = []
    for card in match { events += try ultra.apply(.choose(seat: 0, card: card.id)) }
    let status = StatusLine.runs(for: events, names: ["Ada"])
    #expect(Array(status.prefix(2)) == [.name("Ada", seat: 0), .text(" matched ")])
    #expect(status.compactMap(\.card) == match.map(\.id))
    let diff = Written.json(
      Written.diff(tableID: "t2", version: 4, events: events, names: ["Ada"], status: status))
    let kinds = diff["events"]?.elements?.compactMap { $0["kind"]?.stringValue } ?? []
    #expect(kinds.contains("match"))
    #expect(kinds.filter { $0 == "replace" }.count == 4)
  }
}
