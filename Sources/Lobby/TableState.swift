import Model
import Protocol

/// The arbiter of one table as a pure state machine: it applies moves one at a time to one game,
/// numbers every accepted change, and says what to broadcast. The ``Table`` actor is a thin shell
/// that feeds it and carries out its answers.
public struct TableState<Card: WireCard>: Sendable {
  /// What applying a move came to.
  public enum Outcome: Sendable {
    /// The move changed the game: broadcast `diff` then `status` to everyone at the table.
    case accepted(version: Int, events: [GameEvent<Card>], diff: JSONValue, status: JSONValue)
    /// The move was refused; tell its sender only. Nothing changed.
    case rejected(ProtocolError)
  }

  /// The table's public id.
  public let id: String
  /// The game being played.
  public private(set) var game: CardMatchingGame<Card>
  /// The settings, seed and accepted moves: enough to rebuild ``game``. Secret (holds the seed).
  public private(set) var record: GameRecord
  /// The version of the state; grows by one per accepted move.
  public private(set) var version = 0
  /// Each seat's display name.
  public private(set) var names: [String]
  /// The latest status line.
  public private(set) var status: [StyledRun] = StatusLine.newGame

  /// Opens a table dealing a new game.
  public init(id: String, settings: GameSettings, seed: UInt64, names: [String]) {
    self.id = id
    self.game = CardMatchingGame(settings: settings, seed: seed)
    self.record = GameRecord(settings: settings, seed: seed)
    self.names = names
  }

  /// Applies `move` (made by `move.seat`), answering the sender's message `replyTo`.
  public mutating func apply(_ move: Move, replyTo: MessageID?) -> Outcome {
    let events: [GameEvent<Card>]
    do {
      events = try game.apply(move)
    } catch {
      return .rejected(Self.protocolError(for: error, replyTo: replyTo))
    }
    record.moves.append(move)
    version += 1
    status = StatusLine.runs(for: events, names: names)
    let diff = ServerMessage.diff(
      tableID: id, version: version, seat: move.seat, replyTo: replyTo, events: events,
      names: names)
    return .accepted(
      version: version, events: events, diff: diff,
      status: ServerMessage.status(tableID: id, version: version, runs: status))
  }

  /// The snapshot a member sitting at `you` (nil for a spectator) sees now.
  public func snapshot(replyTo: MessageID?, you: Int?) -> JSONValue {
    ServerMessage.snapshot(
      replyTo: replyTo, tableID: id, version: version, you: you, game: game, names: names,
      status: status)
  }

  /// The status message that goes with the current version.
  public var statusMessage: JSONValue {
    ServerMessage.status(tableID: id, version: version, runs: status)
  }

  /// The wire error for a refused move.
  public static func protocolError(for rejection: MoveRejection, replyTo: MessageID?)
    -> ProtocolError
  {
    switch rejection {
    case .unknownCard(let id):
      ProtocolError(.unknownCard, "There is no card \(id) in this game.", replyTo: replyTo)
    case .cardNotOnTable(let id):
      ProtocolError(.cardNotOnTable, "Card \(id) is not on the table.", replyTo: replyTo)
    case .cardAlreadyMatched(let id):
      ProtocolError(.cardNotOnTable, "Card \(id) is already matched.", replyTo: replyTo)
    case .gameOver:
      ProtocolError(.gameOver, "The game is over; deal again to play on.", replyTo: replyTo)
    case .unknownSeat:
      ProtocolError(.notAtTable, "You have no seat at this table.", replyTo: replyTo)
    }
  }
}
