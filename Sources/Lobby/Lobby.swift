import Logging
import Model
import Protocol

private let processStart = ContinuousClock.now

/// Settings for the lobby.
public struct LobbyConfiguration: Sendable {
  /// The largest message the transport accepts, announced in `welcome`.
  public var maxMessageBytes = 8192
  /// How long a dropped session (and its seat) is kept for a resume, in seconds.
  public var reconnectGrace: Double = 60

  /// Creates the default configuration.
  public init() {}
}

/// The front door: it reads every client message, keeps sessions, opens tables and passes moves
/// to them. Messages are handled one at a time in arrival order, and every one is answered.
public actor Lobby {
  private let outbound: any Outbound
  private let configuration: LobbyConfiguration
  private let logger: Logger
  private let now: @Sendable () -> Double
  private let makeSeed: @Sendable () -> UInt64
  private let makeToken: @Sendable () -> String

  private var registry = SessionRegistry()
  private var tables: [String: Table<SetCard>] = [:]
  private var nextTableNumber = 1

  /// Creates a lobby. `now`, `makeSeed` and `makeToken` are injectable for tests.
  public init(
    outbound: any Outbound, configuration: LobbyConfiguration = LobbyConfiguration(),
    logger: Logger, now: @escaping @Sendable () -> Double = Lobby.monotonicSeconds,
    makeSeed: @escaping @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) },
    makeToken: @escaping @Sendable () -> String = SessionToken.make
  ) {
    self.outbound = outbound
    self.configuration = configuration
    self.logger = logger
    self.now = now
    self.makeSeed = makeSeed
    self.makeToken = makeToken
  }

  /// Seconds on a monotonic clock since the process started.
  public static let monotonicSeconds: @Sendable () -> Double = {
    let d = ContinuousClock.now - processStart
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }

  /// How many tables are open.
  public var tableCount: Int { tables.count }

  /// How many sessions exist (attached or waiting for a resume).
  public var sessionCount: Int { registry.count }

  /// Handles one complete text message from `connection`.
  public func received(_ bytes: [UInt8], from connection: ConnectionID) async {
    switch ClientMessageDecoder.decode(bytes) {
    case .failure(let error):
      reply(error, to: connection)
    case .success(let envelope):
      await handle(envelope, from: connection)
    }
  }

  /// The connection has gone: its session waits for a resume, its table stops sending to it.
  public func disconnected(_ connection: ConnectionID) async {
    guard let session = registry.detach(connection, now: now()) else { return }
    if let tableID = session.tableID, let table = tables[tableID] {
      await table.leave(connection)
    }
  }

  /// Forgets sessions detached for longer than the grace period, and closes tables nobody holds.
  public func sweep() {
    for session in registry.expire(now: now(), grace: configuration.reconnectGrace) {
      if let tableID = session.tableID, !registry.othersSeated(at: tableID, besides: session.token)
      {
        tables[tableID] = nil
        logger.debug("table closed", metadata: ["table": "\(tableID)"])
      }
    }
  }

  private func handle(_ envelope: ClientEnvelope, from connection: ConnectionID) async {
    let replyTo = envelope.id
    if case .hello(let name, let resume) = envelope.message {
      await hello(name: name, resume: resume, replyTo: replyTo, from: connection)
      return
    }
    guard let session = registry.session(for: connection) else {
      reply(ProtocolError(.helloRequired, "Say hello first.", replyTo: replyTo), to: connection)
      return
    }
    switch envelope.message {
    case .hello:
      break
    case .playSolo(let game):
      guard game == SetCard.gameName else {
        reply(
          ProtocolError(.unknownGame, "This server deals only 'set'.", replyTo: replyTo),
          to: connection)
        return
      }
      await leaveTable(session)
      let tableID = "t\(nextTableNumber)"
      nextTableNumber += 1
      let table = Table<SetCard>(
        id: tableID, settings: .set(seats: 1), seed: makeSeed(), names: [session.name],
        outbound: outbound)
      tables[tableID] = table
      registry.seat(token: session.token, tableID: tableID, seat: 0)
      await table.join(connection, seat: 0, replyTo: replyTo)
    case .choose(let card):
      guard let (table, seat) = seatedTable(session, replyTo: replyTo, connection) else { return }
      await table.play(.choose(seat: seat, card: card), replyTo: replyTo, from: connection)
    case .redeal:
      guard let (table, seat) = seatedTable(session, replyTo: replyTo, connection) else { return }
      await table.play(.redeal(seat: seat), replyTo: replyTo, from: connection)
    case .resync:
      guard let (table, _) = seatedTable(session, replyTo: replyTo, connection) else { return }
      await table.sendSnapshot(to: connection, replyTo: replyTo)
    }
  }

  private func hello(
    name: String?, resume: String?, replyTo: MessageID?, from connection: ConnectionID
  ) async {
    if registry.session(for: connection) != nil {
      reply(
        ProtocolError(.alreadyHello, "This connection said hello already.", replyTo: replyTo),
        to: connection)
      return
    }
    if let resume, let (session, replaced) = registry.resume(token: resume, connection: connection)
    {
      if let replaced {
        outbound.close(
          replaced, code: CloseCode.sessionTakenOver, reason: "session resumed elsewhere")
      }
      send(
        ServerMessage.welcome(
          replyTo: replyTo, session: session.token, name: session.name, resumed: true,
          maxMessageBytes: configuration.maxMessageBytes), to: connection)
      if let tableID = session.tableID, let table = tables[tableID] {
        if let replaced { await table.leave(replaced) }
        await table.join(connection, seat: session.seat, replyTo: nil)
      }
      return
    }
    let session = registry.open(token: makeToken(), name: name ?? "Player", connection: connection)
    send(
      ServerMessage.welcome(
        replyTo: replyTo, session: session.token, name: session.name, resumed: false,
        maxMessageBytes: configuration.maxMessageBytes), to: connection)
  }

  private func seatedTable(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID
  ) -> (Table<SetCard>, Int)? {
    guard let tableID = session.tableID, let table = tables[tableID], let seat = session.seat
    else {
      reply(
        ProtocolError(.notAtTable, "You are not at a table; start a game first.", replyTo: replyTo),
        to: connection)
      return nil
    }
    return (table, seat)
  }

  private func leaveTable(_ session: SessionRegistry.Session) async {
    guard let tableID = session.tableID, let table = tables[tableID] else { return }
    if let connection = session.connection { await table.leave(connection) }
    registry.seat(token: session.token, tableID: nil, seat: nil)
    if !registry.othersSeated(at: tableID, besides: session.token) { tables[tableID] = nil }
  }

  private func reply(_ error: ProtocolError, to connection: ConnectionID) {
    send(ServerMessage.error(error), to: connection)
  }

  private func send(_ message: JSONValue, to connection: ConnectionID) {
    outbound.send(message.encoded, to: [connection])
  }
}
