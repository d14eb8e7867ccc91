extension EventLoop {
  /// Handles one text message.
  func receive(message bytes: [UInt8], on connection: Connection, now: UInt64) {
    statistics.framesTotal += 1
    guard let message = try? JSON.parse(bytes), let type = message["type"]?.string else {
      statistics.protocolErrors += 1
      return
    }
    switch type {
    case "diff":
      statistics.diffsTotal += 1
      if let timeline, now >= timeline.windowStart, now < timeline.windowEnd {
        statistics.diffsInWindow += 1
      }
      let wasOver = connection.tracker.over
      switch connection.tracker.applyDiff(message) {
      case .gap:
        statistics.resyncs += 1
        sendText(#"{"type":"resync","id":3}"#, on: connection)
      case .applied:
        if configuration.mode == .play { countClaims(message, connection) }
        if !stallBegan.isEmpty { observeStallTable(message, on: connection, now: now) }
      case .duplicate, .waiting:
        break
      }
      if configuration.mode == .play, connection.role == .host, !wasOver, connection.tracker.over,
        !closing
      {
        statistics.gamesOver += 1
        statistics.redeals += 1
        let seq = connection.nextSeq
        connection.nextSeq += 1
        connection.pending[seq] = Connection.Pending(sent: now, measured: false)
        pendingCount += 1
        sendText(#"{"type":"redeal","id":\#(seq)}"#, on: connection)
      }
      checkReady(connection)
      if let seat = message["seat"]?.int, seat == connection.seat,
        let seq = message["replyTo"]?.int
      {
        answered(connection, seq: seq, error: nil, now: now)
      }
    case "status":
      statistics.statusFrames += 1
    case "snapshot":
      guard let table = message["table"] else { return }
      connection.tracker.applySnapshot(table: table)
      connection.seat = connection.role == .spectator ? nil : table["you"]?.int
      if connection.role == .host, tables[connection.table].code == nil,
        let code = table["code"]?.string
      {
        tables[connection.table].code = code
        for member in tables[connection.table].members { join(connections[member]) }
      }
      checkReady(connection)
    case "welcome":
      connection.welcomed = true
      if connection.role == .host {
        sendText(
          #"{"type":"createTable","id":2,"game":"set","seats":\#(configuration.seats),"private":true}"#,
          on: connection)
      } else {
        join(connection)
      }
    case "error":
      let code = message["code"]?.string ?? "unknown"
      statistics.errors[code, default: 0] += 1
      guard let seq = message["replyTo"]?.int else { return }
      if seq < 100 {
        // A setup message was refused: this connection will never be ready.
        settle(connection, ready: false)
      } else {
        answered(connection, seq: seq, error: code, now: now)
      }
    default:
      break
    }
  }

  /// Counts the sets this bot claimed in an applied diff.
  private func countClaims(_ diff: JSON, _ connection: Connection) {
    guard let seat = connection.seat else { return }
    for event in diff["events"]?.array ?? []
    where event["kind"]?.string == "match" && event["seat"]?.int == seat {
      statistics.setsClaimed += 1
    }
  }

  /// Sends `join` or `spectate` once the connection is welcomed and its table has a code.
  private func join(_ connection: Connection) {
    guard connection.role != .host, connection.welcomed, !connection.joinSent,
      let code = tables[connection.table].code
    else { return }
    connection.joinSent = true
    let type = connection.role == .spectator ? "spectate" : "join"
    sendText(#"{"type":"\#(type)","id":2,"code":"\#(code)"}"#, on: connection)
  }

  /// Marks the connection ready once its table plays and it can see the board.
  private func checkReady(_ connection: Connection) {
    guard !connection.settled else { return }
    let tracker = connection.tracker
    let playing = tracker.phase == nil || tracker.phase == "playing"
    guard playing, !tracker.board.isEmpty, connection.role == .spectator || connection.seat != nil
    else { return }
    settle(connection, ready: true)
  }

  /// Setup is over for `connection`: ready, or failed.
  func settle(_ connection: Connection, ready: Bool) {
    guard !connection.settled else { return }
    connection.settled = true
    connection.ready = ready
    settledCount += 1
    if ready {
      statistics.ready += 1
    } else {
      statistics.setupFailures += 1
    }
  }
}
