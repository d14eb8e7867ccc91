import Model
import Protocol

/// One table: an actor that owns a ``TableState`` and the connections watching it. Moves are
/// applied one at a time, in the order they reach the actor; that order is the arbitration.
public actor Table<Card: WireCard> {
  /// The table's public id.
  public nonisolated let id: String
  private var state: TableState<Card>
  /// Who is watching, and the seat each sits in (nil for a spectator).
  private var members: [ConnectionID: Int?] = [:]
  private let outbound: any Outbound

  /// Opens a table with a new game.
  public init(
    id: String, settings: GameSettings, seed: UInt64, names: [String], outbound: any Outbound
  ) {
    self.id = id
    self.state = TableState(id: id, settings: settings, seed: seed, names: names)
    self.outbound = outbound
  }

  /// Adds (or moves) `connection` to the table in `seat`, and sends it a snapshot and status.
  public func join(_ connection: ConnectionID, seat: Int?, replyTo: MessageID?) {
    members[connection] = seat
    sendSnapshot(to: connection, replyTo: replyTo)
  }

  /// Removes `connection` from the table.
  public func leave(_ connection: ConnectionID) {
    members[connection] = nil
  }

  /// How many connections are at the table.
  public var memberCount: Int { members.count }

  /// Sends `connection` a fresh snapshot (and the current status line).
  public func sendSnapshot(to connection: ConnectionID, replyTo: MessageID?) {
    let you = members[connection] ?? nil
    outbound.send(state.snapshot(replyTo: replyTo, you: you).encoded, to: [connection])
    outbound.send(state.statusMessage.encoded, to: [connection])
  }

  /// Applies a move from `connection`: broadcasts the diff and status, or answers with an error.
  public func play(_ move: Move, replyTo: MessageID?, from connection: ConnectionID) {
    switch state.apply(move, replyTo: replyTo) {
    case .accepted(_, _, let diff, let status):
      let everyone = Array(members.keys)
      outbound.send(diff.encoded, to: everyone)
      outbound.send(status.encoded, to: everyone)
    case .rejected(let error):
      outbound.send(ServerMessage.error(error).encoded, to: [connection])
    }
  }

  /// The game's record (settings, seed, moves): for persistence and verification, never the wire.
  public var record: GameRecord { state.record }

  /// The current version.
  public var version: Int { state.version }
}
