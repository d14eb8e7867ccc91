import Model
import Protocol

/// A finished game played again from its record: the `record` answer, whose replay is the
/// table as a spectator saw it when play began and the diff each move made — the same
/// snapshot and diffs a live client follows, so a client draws any step of it with the code
/// that draws a live game.
public enum FinishedGameReplay {
  /// The `record` message answering `replyTo` with `game`, or nil when its moves do not replay
  /// (a record from another version of the rules: nothing a client could be shown).
  public static func answer(_ game: FinishedGame, replyTo: MessageID?) -> Frame? {
    let replay: (table: JSONValue, diffs: [Frame])?
    switch game.game {
    case SetCard.gameName: replay = Self.replay(SetCard.self, game)
    case PlayingCard.gameName: replay = Self.replay(PlayingCard.self, game)
    case EmojiCard.gameName: replay = Self.replay(EmojiCard.self, game)
    default: replay = nil
    }
    guard let replay else { return nil }
    return ServerMessage.record(game, table: replay.table, diffs: replay.diffs, replyTo: replyTo)
  }

  private static func replay<Card: WireCard>(_: Card.Type, _ record: FinishedGame) -> (
    table: JSONValue, diffs: [Frame]
  )? {
    var names = (0..<record.settings.seats).map { "Seat \($0 + 1)" }
    for player in record.players where names.indices.contains(player.seat) {
      names[player.seat] = player.name
    }
    var table = TableState<Card>(
      id: record.id, settings: record.settings, seed: record.seed, names: names,
      selectionsVisible: true, now: 0)
    guard let start = table.snapshot(replyTo: nil, you: nil, now: 0)["table"] else { return nil }
    var diffs: [Frame] = []
    diffs.reserveCapacity(record.moves.count)
    for timed in record.moves {
      guard let frame = table.replay(timed.move, at: timed.at) else { return nil }
      diffs.append(frame)
    }
    return (start, diffs)
  }
}
