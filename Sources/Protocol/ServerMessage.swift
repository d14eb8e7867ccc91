import Model

/// Builds the server's messages (protocol v2) as JSON; `docs/PROTOCOL.md` shows each one.
///
/// Everything here encodes only what a viewer may see: board, selections, scores, deck count.
/// The deck's order and the seed are not reachable from a ``CardMatchingGame``'s public API.
public enum ServerMessage {
  /// The protocol version this module speaks.
  public static let protocolVersion = 2

  /// Answers `hello`; `node` is the id of the server that answers, `gamesVersion` names its
  /// games' descriptions, and `games` is them when the `hello` asked (an array of
  /// ``GameDescription/json``, in the order a lobby offers them).
  public static func welcome(
    replyTo: MessageID?, session: String, name: String, resumed: Bool, maxMessageBytes: Int,
    node: String, gamesVersion: String, games: JSONValue?
  ) -> JSONValue {
    var fields: [(String, JSONValue)] = [
      ("protocol", .int(protocolVersion)), ("session", .string(session)),
      ("name", .string(name)), ("resumed", .bool(resumed)),
      ("maxMessageBytes", .int(maxMessageBytes)), ("node", .string(node)),
      ("gamesVersion", .string(gamesVersion)),
    ]
    if let games { fields.append(("games", games)) }
    return object("welcome", replyTo: replyTo, fields)
  }

  /// The whole visible state of a table. `meta` adds the table around the game (multiplayer
  /// tables); without it every seat is listed as a player.
  public static func snapshot<Card: WireCard>(
    replyTo: MessageID?, tableID: String, version: Int, you: Int?,
    game: CardMatchingGame<Card>, names: [String], status: [StyledRun], meta: TableMeta? = nil,
    history: [HistoryEntry] = []
  ) -> JSONValue {
    let dealt = meta.map { $0.phase == .playing || $0.phase == .finished } ?? true
    var table: [(String, JSONValue)] = [
      ("id", .string(tableID)), ("game", .string(Card.gameName)), ("version", .int(version)),
    ]
    if let you { table.append(("you", .int(you))) }
    if let meta {
      table += [
        ("phase", .string(meta.phase.rawValue)), ("code", .string(meta.code)),
        ("private", .bool(meta.isPrivate)), ("seats", .int(meta.seats)),
      ]
      if let host = meta.host { table.append(("host", .int(host))) }
      table.append(("spectators", .int(meta.spectators)))
      if let countdown = meta.countdown { table.append(("countdown", .int(countdown))) }
      if let vote = meta.vote {
        table.append(
          (
            "vote",
            .object([
              ("seats", .array(vote.seats.map { .int($0) })), ("needed", .int(vote.needed)),
            ])
          ))
      }
    }
    let naming = CardNaming(game)
    // With selections hidden a player sees only their own (and the faces it turned up); a
    // spectator (`you` nil) sees every one.
    let onlySeat = meta?.selectionsHidden == true ? you : nil
    func shows(_ seat: Int) -> Bool { onlySeat.map { $0 == seat } ?? true }
    func faceUp(_ card: Card) -> Bool {
      guard let onlySeat else { return game.isFaceUp(card) }
      return game.matchedOnBoard.contains(card.id)
        || game.players[onlySeat].selection.contains(card.id)
    }
    let board: [JSONValue]
    if !dealt {
      board = []
    } else if game.settings.faceDown {
      board = game.board.enumerated().map { slot, card in
        card.faceObject(
          handle: slot, faceUp: faceUp(card), matched: game.matchedOnBoard.contains(card.id))
      }
    } else {
      board = game.board.map { $0.wireObject }
    }
    table += [
      ("over", .bool(dealt && game.isOver)),
      ("deckCount", .int(dealt ? game.deckCount : Card.deckSize(for: game.settings))),
      ("settings", settings(game.settings, selectionsHidden: meta?.selectionsHidden == true)),
      ("board", .array(board)),
    ]
    // A chained game (Set-Chain) shows its chain beside the board, empty until the first match.
    if Card.chainsMatches {
      table.append(("chain", .array(dealt ? game.chain.map(\.wireObject) : [])))
    }
    if dealt && !game.matchedOnBoard.isEmpty {
      let matched = game.board.filter { game.matchedOnBoard.contains($0.id) }
      table.append(("matched", .array(matched.map { naming.handle($0) }.sorted().map { .int($0) })))
    }
    if dealt, let turn = game.turn { table.append(("turn", .int(turn))) }
    if let seconds = meta?.turnSeconds { table.append(("turnSeconds", .int(seconds))) }
    if dealt, let left = meta?.turnLeft { table.append(("turnLeft", .int(left))) }
    if let day = meta?.daily { table.append(("daily", .string(day))) }
    if meta?.computerOffer == true { table.append(("computerOffer", .bool(true))) }
    let seats: [SeatView] =
      meta?.occupied
      ?? game.players.indices.map {
        SeatView(seat: $0, name: name(of: $0, in: names), connected: true)
      }
    table.append(
      (
        "players",
        .array(
          seats.map { view in
            let player = game.players[view.seat]
            var members: [(String, JSONValue)] = [
              ("seat", .int(view.seat)), ("name", .string(view.name)),
              ("score", .int(player.score)), ("matches", .int(player.matches)),
              (
                "selection",
                .array(
                  shows(view.seat)
                    ? player.selection.map { .int(naming.handle(Card.fullDeck[$0])) } : [])
              ),
            ]
            // Hidden selections hide how many cards an opponent turned up too.
            if game.settings.faceDown && shows(view.seat) {
              members.append(("flips", .int(player.flips)))
            }
            if meta != nil {
              members.append(("connected", .bool(view.connected)))
              if let away = view.away { members.append(("away", .int(away))) }
              if let rating = view.rating {
                members.append(("rating", .object(rating.wireMembers)))
              }
              if let bot = view.bot {
                members.append(("bot", botMark(level: bot)))
              }
            }
            return .object(members)
          })
      ))
    table.append(("status", .array(status.map(\.json))))
    if dealt && !history.isEmpty {
      table.append(
        ("history", .array(history.map { $0.json(names: names, naming: naming, as: Card.self) })))
    }
    if dealt && game.isOver {
      let ranked = meta?.ranked ?? seats.map(\.seat)
      let standings = game.standings.filter { ranked.contains($0.seat) }
      table.append(
        (
          "standings",
          Self.standings(
            Standing.ranked(standings, byMatches: game.settings.ranksByMatches), names: names)
        ))
    }
    return object("snapshot", replyTo: replyTo, [("table", .object(table))])
  }

  /// A refusal.
  public static func error(_ error: ProtocolError) -> JSONValue {
    object(
      "error", replyTo: error.replyTo,
      [("code", .string(error.code.rawValue)), ("message", .string(error.message))])
  }

  /// Writes one game event as a diff entry; `names` name the seats in standings, `naming` the
  /// cards (by slot in a face-down game). The one encoder of game events: every diff, live or
  /// replayed, is written through it, straight into its frame.
  public static func writeEvent<Card: WireCard>(
    _ event: GameEvent<Card>, names: [String], naming: CardNaming<Card> = .byID,
    to out: inout JSONWriter
  ) {
    func ids(_ cards: [Card]) {
      out.byte(UInt8(ascii: "["))
      for (i, card) in cards.enumerated() {
        if i > 0 { out.byte(UInt8(ascii: ",")) }
        out.int(naming.handle(card))
      }
      out.byte(UInt8(ascii: "]"))
    }
    func arriving(_ cards: [Card], firstSlot: Int) {
      out.byte(UInt8(ascii: "["))
      for (i, card) in cards.enumerated() {
        if i > 0 { out.byte(UInt8(ascii: ",")) }
        if naming.faceDownBoard == nil {
          card.writeWireObject(to: &out)
        } else {
          out.value(faceDownObject(handle: firstSlot + i))
        }
      }
      out.byte(UInt8(ascii: "]"))
    }
    switch event {
    case .selected(let seat, let card):
      out.raw(#"{"kind":"select","seat":"#)
      out.int(seat)
      out.raw(#","card":"#)
      out.int(naming.handle(card))
    case .deselected(let seat, let card):
      out.raw(#"{"kind":"deselect","seat":"#)
      out.int(seat)
      out.raw(#","card":"#)
      out.int(naming.handle(card))
    case .matched(let seat, let cards, let points):
      out.raw(#"{"kind":"match","seat":"#)
      out.int(seat)
      out.raw(#","cards":"#)
      ids(cards)
      out.raw(#","points":"#)
      out.int(points)
    case .mismatched(let seat, let cards, let penalty):
      out.raw(#"{"kind":"mismatch","seat":"#)
      out.int(seat)
      out.raw(#","cards":"#)
      ids(cards)
      out.raw(#","penalty":"#)
      out.int(penalty)
    case .scored(let seat, let score):
      out.raw(#"{"kind":"score","seat":"#)
      out.int(seat)
      out.raw(#","score":"#)
      out.int(score)
    case .replaced(let slot, let card):
      out.raw(#"{"kind":"replace","slot":"#)
      out.int(slot)
      out.raw(#","card":"#)
      if naming.faceDownBoard == nil {
        card.writeWireObject(to: &out)
      } else {
        out.value(faceDownObject(handle: slot))
      }
    case .removed(let cards):
      out.raw(#"{"kind":"remove","cards":"#)
      ids(cards)
    case .dealt(let cards, let reason):
      out.raw(#"{"kind":"deal","cards":"#)
      arriving(cards, firstSlot: (naming.faceDownBoard?.count ?? cards.count) - cards.count)
      out.raw(#","reason":"#)
      out.string(reason.rawValue)
    case .deckCount(let count):
      out.raw(#"{"kind":"deck","count":"#)
      out.int(count)
    case .redealt(let board, let deckCount):
      out.raw(#"{"kind":"redeal","board":"#)
      arriving(board, firstSlot: 0)
      out.raw(#","deckCount":"#)
      out.int(deckCount)
    case .ended(let rows):
      // Once a game: the standings are built as a value.
      out.raw(#"{"kind":"over","standings":"#)
      out.value(standings(rows, names: names))
    case .turnedUp(let seat, let card):
      out.raw(#"{"kind":"flip","seat":"#)
      out.int(seat)
      out.raw(#","card":"#)
      out.value(naming.turnedUp(card))
    case .turnedDown(let cards):
      out.raw(#"{"kind":"hide","cards":"#)
      ids(cards)
    case .turn(let seat):
      out.raw(#"{"kind":"turn","seat":"#)
      out.int(seat)
    case .chained(let cards):
      out.raw(#"{"kind":"chain","cards":"#)
      arriving(cards, firstSlot: 0)
    }
    out.byte(UInt8(ascii: "}"))
  }

  private static func standings(_ rows: [Standing], names: [String]) -> JSONValue {
    .array(
      rows.map {
        .object([
          ("seat", .int($0.seat)), ("name", .string(name(of: $0.seat, in: names))),
          ("score", .int($0.score)), ("matches", .int($0.matches)), ("rank", .int($0.rank)),
        ])
      })
  }

  /// A table's settings as its snapshot shows them.
  public static func settings(_ s: GameSettings, selectionsHidden: Bool = false) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("boardSize", .int(s.boardSize)), ("matchSize", .int(s.matchSize)),
      ("costToChoose", .int(s.costToChoose)), ("mismatchPenalty", .int(s.mismatchPenalty)),
      ("matchBonus", .int(s.matchBonus)),
    ]
    if s.matchPoints > 0 { members.append(("matchPoints", .int(s.matchPoints))) }
    members.append(("scoring", .string(s.scoring?.rawValue ?? "custom")))
    if s.faceDown { members.append(("faceDown", .bool(true))) }
    if s.turnBased { members.append(("turnBased", .bool(true))) }
    // Concentration (face down, in turns) is the game whose emoji deck has themes.
    if s.faceDown && s.turnBased { members.append(("theme", .int(s.theme))) }
    if selectionsHidden { members.append(("showSelections", .bool(false))) }
    return .object(members)
  }

  /// The name of `seat` among `names`, or "Seat N" when it has none.
  public static func name(of seat: Int, in names: [String]) -> String {
    names.indices.contains(seat) ? names[seat] : "Seat \(seat + 1)"
  }

  /// A message of `type` answering `replyTo` with `members`.
  static func object(
    _ type: String, replyTo: MessageID?, _ members: [(String, JSONValue)]
  ) -> JSONValue {
    var all: [(String, JSONValue)] = [("type", .string(type))]
    if let replyTo { all.append(("replyTo", replyTo.json)) }
    return .object(all + members)
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension ServerMessage {
  /// A computer player's mark on the wire, wherever a player is listed (a snapshot's players,
  /// a finished game's, the high scores'): `{"level":"expert"}`. A `join` event writes the same.
  public static func botMark(level: String) -> JSONValue {
    .object([("level", .string(level))])
  }
}
