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
  /// Seconds between a table's start and its deal.
  public var countdown: Double = 3
  /// Seconds a table with nobody seated stays open.
  public var emptyTableGrace: Double = 10
  /// Most spectators at one table.
  public var spectatorLimit = 50

  /// Creates the default configuration.
  public init() {}

  var tableRules: TableRules {
    var rules = TableRules()
    rules.countdown = countdown
    rules.reconnectGrace = reconnectGrace
    return rules
  }
}

/// The front door: it reads every client message, keeps sessions, lists and opens tables, and
/// passes moves to them. Messages are handled one at a time in arrival order, and every one is
/// answered.
public actor Lobby {
  private let outbound: any Outbound
  private let configuration: LobbyConfiguration
  private let logger: Logger
  private let now: @Sendable () -> Double
  private let makeSeed: @Sendable () -> UInt64
  private let makeToken: @Sendable () -> String

  private var registry = SessionRegistry()
  private var directory = TableDirectory()
  private var tables: [String: Table<SetCard>] = [:]
  private var watchers: Set<ConnectionID> = []
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

  /// The connection has gone: its session waits for a resume; its seat is held for the grace
  /// period (the others see it "away"); a spectator stops watching.
  public func disconnected(_ connection: ConnectionID) async {
    watchers.remove(connection)
    guard let session = registry.detach(connection, now: now()) else { return }
    if let tableID = session.tableID, let table = tables[tableID] {
      await table.remove(connection, releaseSeat: session.seat == nil, now: now())
      if session.seat == nil { registry.seat(token: session.token, tableID: nil, seat: nil) }
      await publish(table)
    }
  }

  /// Moves time on: countdowns end, seats whose players did not return are released, sessions
  /// past their grace are forgotten, and tables nobody sits at are closed after their grace.
  public func tick() async {
    let time = now()
    for table in tables.values {
      let released = await table.tick(now: time)
      for token in released { registry.seat(token: token, tableID: nil, seat: nil) }
      // A countdown that ended or a seat released changes the lobby row; publish sends only
      // real changes.
      await publish(table)
      let solo = await table.listing.seats == 1
      if let since = await table.emptySince, solo || time - since >= configuration.emptyTableGrace {
        await close(table)
      }
    }
    _ = registry.expire(now: time, grace: configuration.reconnectGrace)
  }

  // MARK: - Messages

  private func handle(_ envelope: ClientEnvelope, from connection: ConnectionID) async {
    let replyTo = envelope.id
    if case .hello(let name, let resume, let version) = envelope.message {
      await hello(name: name, resume: resume, version: version, replyTo: replyTo, from: connection)
      return
    }
    guard let session = registry.session(for: connection) else {
      reply(ProtocolError(.helloRequired, "Say hello first.", replyTo: replyTo), to: connection)
      return
    }
    switch envelope.message {
    case .hello:
      break
    case .lobby:
      watchers.insert(connection)
      send(
        ServerMessage.lobbySnapshot(
          replyTo: replyTo, version: directory.version, tables: directory.publicListings),
        to: connection)
    case .playSolo(let game):
      guard checkGame(game, replyTo: replyTo, connection) else { return }
      await leaveTable(session)
      let id = newTableID()
      let table = Table<SetCard>(
        id: id, settings: .set(seats: 1), seed: makeSeed(), names: [session.name],
        outbound: outbound, code: directory.newCode(using: randomBelow),
        rules: configuration.tableRules)
      await open(table)
      registry.seat(token: session.token, tableID: id, seat: 0)
      watchers.remove(connection)
      await table.join(connection, seat: 0, replyTo: replyTo, now: now())
    case .quickMatch(let game, let seats):
      guard checkGame(game, replyTo: replyTo, connection) else { return }
      await leaveTable(session)
      if let id = directory.quickMatch(game: game, seats: seats), let table = tables[id],
        await sit(session, connection, at: table, replyTo: replyTo, quiet: true)
      {
        return
      }
      let table = await newTable(seats: seats, isPrivate: false)
      _ = await sit(session, connection, at: table, replyTo: replyTo, quiet: false)
    case .createTable(let game, let seats, let isPrivate):
      guard checkGame(game, replyTo: replyTo, connection) else { return }
      await leaveTable(session)
      let table = await newTable(seats: seats, isPrivate: isPrivate)
      _ = await sit(session, connection, at: table, replyTo: replyTo, quiet: false)
    case .join(let reference):
      guard let table = find(reference, replyTo: replyTo, connection) else { return }
      if session.tableID == table.id && session.seat != nil {
        await table.sendSnapshot(to: connection, replyTo: replyTo, now: now())
        return
      }
      await leaveTable(session)
      _ = await sit(session, connection, at: table, replyTo: replyTo, quiet: false)
    case .spectate(let reference):
      guard let table = find(reference, replyTo: replyTo, connection) else { return }
      await leaveTable(session)
      switch await table.watch(
        connection, replyTo: replyTo, limit: configuration.spectatorLimit, now: now())
      {
      case .failure(let error):
        reply(error, to: connection)
      case .success:
        registry.seat(token: session.token, tableID: table.id, seat: nil)
        watchers.remove(connection)
        await publish(table)
      }
    case .leave:
      await leaveTable(session)
      send(ServerMessage.left(replyTo: replyTo), to: connection)
    case .start:
      guard let (table, seat) = seatedTable(session, replyTo: replyTo, connection) else { return }
      await table.start(by: seat, replyTo: replyTo, from: connection, now: now())
      await publish(table)
    case .choose(let card):
      guard let (table, seat) = seatedTable(session, replyTo: replyTo, connection) else { return }
      await table.play(.choose(seat: seat, card: card), replyTo: replyTo, from: connection)
    case .redeal:
      guard let (table, seat) = seatedTable(session, replyTo: replyTo, connection) else { return }
      await table.redeal(by: seat, replyTo: replyTo, from: connection)
      await publish(table)
    case .resync:
      guard let tableID = session.tableID, let table = tables[tableID] else {
        reply(
          ProtocolError(.notAtTable, "You are not at a table.", replyTo: replyTo), to: connection)
        return
      }
      await table.sendSnapshot(to: connection, replyTo: replyTo, now: now())
    }
  }

  private func hello(
    name: String?, resume: String?, version: Int?, replyTo: MessageID?,
    from connection: ConnectionID
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
        watchers.remove(replaced)
        outbound.close(
          replaced, code: CloseCode.sessionTakenOver, reason: "session resumed elsewhere")
      }
      send(
        ServerMessage.welcome(
          replyTo: replyTo, session: session.token, name: session.name, resumed: true,
          maxMessageBytes: configuration.maxMessageBytes), to: connection)
      if let tableID = session.tableID, let table = tables[tableID] {
        if let replaced {
          await table.handOver(
            from: replaced, to: connection, version: version, replyTo: nil, now: now())
        } else {
          await table.rejoin(
            connection, seat: session.seat, version: version, replyTo: nil, now: now())
        }
      }
      return
    }
    let session = registry.open(token: makeToken(), name: name ?? "Player", connection: connection)
    send(
      ServerMessage.welcome(
        replyTo: replyTo, session: session.token, name: session.name, resumed: false,
        maxMessageBytes: configuration.maxMessageBytes), to: connection)
  }

  // MARK: - Tables

  private func sit(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, at table: Table<SetCard>,
    replyTo: MessageID?, quiet: Bool
  ) async -> Bool {
    switch await table.sit(
      connection, token: session.token, name: session.name, replyTo: replyTo, now: now())
    {
    case .failure(let error):
      if !quiet { reply(error, to: connection) }
      return false
    case .success(let seat):
      registry.seat(token: session.token, tableID: table.id, seat: seat)
      watchers.remove(connection)
      await publish(table)
      return true
    }
  }

  private func newTable(seats: Int, isPrivate: Bool) async -> Table<SetCard> {
    let state = TableState<SetCard>(
      id: newTableID(), code: directory.newCode(using: randomBelow), isPrivate: isPrivate,
      settings: .set(seats: seats), seed: makeSeed(), rules: configuration.tableRules,
      now: now())
    // Listed once its creator sits, so the lobby never shows it empty.
    let table = Table(state: state, outbound: outbound)
    tables[table.id] = table
    return table
  }

  private func open(_ table: Table<SetCard>) async {
    tables[table.id] = table
    await publish(table)
  }

  private func close(_ table: Table<SetCard>) async {
    await table.close()
    tables[table.id] = nil
    if let change = directory.remove(table.id) { broadcastLobby([change]) }
    logger.debug("table closed", metadata: ["table": "\(table.id)"])
  }

  /// Publishes a table's lobby row if it changed.
  private func publish(_ table: Table<SetCard>) async {
    let listing = await table.listing
    if let change = directory.update(listing, code: table.code, isPrivate: table.isPrivate) {
      broadcastLobby([change])
    }
  }

  private func broadcastLobby(_ changes: [LobbyChange]) {
    let version = directory.publish()
    guard !watchers.isEmpty else { return }
    outbound.send(
      ServerMessage.lobbyDiff(version: version, changes: changes).encoded, to: Array(watchers))
  }

  private func find(_ reference: TableReference, replyTo: MessageID?, _ connection: ConnectionID)
    -> Table<SetCard>?
  {
    let id: String? =
      switch reference {
      case .code(let code): directory.table(withCode: code)
      case .id(let id): directory.entry(id).flatMap { $0.isPrivate ? nil : id }
      }
    guard let id, let table = tables[id] else {
      reply(
        ProtocolError(.unknownTable, "There is no such table.", replyTo: replyTo), to: connection)
      return nil
    }
    return table
  }

  private func checkGame(_ game: String, replyTo: MessageID?, _ connection: ConnectionID) -> Bool {
    guard game == SetCard.gameName else {
      reply(
        ProtocolError(.unknownGame, "This server deals only 'set'.", replyTo: replyTo),
        to: connection)
      return false
    }
    return true
  }

  private func seatedTable(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID
  ) -> (Table<SetCard>, Int)? {
    guard let tableID = session.tableID, let table = tables[tableID] else {
      reply(
        ProtocolError(.notAtTable, "You are not at a table; start a game first.", replyTo: replyTo),
        to: connection)
      return nil
    }
    guard let seat = session.seat else {
      reply(
        ProtocolError(.spectator, "Spectators watch; they cannot play.", replyTo: replyTo),
        to: connection)
      return nil
    }
    return (table, seat)
  }

  /// Takes the session away from its table: a seat is released at once.
  private func leaveTable(_ session: SessionRegistry.Session) async {
    guard let tableID = session.tableID else { return }
    registry.seat(token: session.token, tableID: nil, seat: nil)
    guard let table = tables[tableID] else { return }
    if let connection = session.connection {
      await table.remove(connection, releaseSeat: true, now: now())
    }
    if let seat = session.seat { await table.release(seat: seat, now: now()) }
    // A solo table has nobody to wait for.
    let solo = await table.listing.seats == 1
    if solo, await table.emptySince != nil {
      await close(table)
    } else {
      await publish(table)
    }
  }

  private func newTableID() -> String {
    defer { nextTableNumber += 1 }
    return "t\(nextTableNumber)"
  }

  private nonisolated func randomBelow(_ n: Int) -> Int { Int.random(in: 0..<n) }

  private func reply(_ error: ProtocolError, to connection: ConnectionID) {
    send(ServerMessage.error(error), to: connection)
  }

  private func send(_ message: JSONValue, to connection: ConnectionID) {
    outbound.send(message.encoded, to: [connection])
  }
}
