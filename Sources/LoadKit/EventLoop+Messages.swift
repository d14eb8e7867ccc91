extension EventLoop {
  /// Handles one text message.
  func receive(message bytes: [UInt8], on connection: Connection, now: UInt64) {
    statistics.framesTotal += 1
    // A crowd's diffs are read for their version alone: ten thousand spectators parsing every
    // diff would time the load generator, not the server.
    if connection.watchedVersion != nil, let version = Self.diffVersion(bytes) {
      spectatorDiff(version, on: connection, now: now)
      return
    }
    guard let message = try? JSON.parse(bytes), let type = message["type"]?.string else {
      statistics.protocolErrors += 1
      return
    }
    switch type {
    case "diff":
      statistics.diffsTotal += 1
      // A watching spectator after a gap, waiting for its snapshot: nothing to apply.
      if connection.role == .spectator && connection.settled { return }
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
      // A re-deal is a vote that needs a majority of the players: at a table of two, both
      // bots ask. (When only the host asked, every table stopped after its first game.)
      if configuration.mode == .play, connection.role != .spectator, !wasOver,
        connection.tracker.over, !closing
      {
        if connection.role == .host { statistics.gamesOver += 1 }
        statistics.redealVotes += 1
        let seq = connection.nextSeq
        connection.nextSeq += 1
        connection.pending[seq] = Connection.Pending(sent: now, measured: false)
        pendingCount += 1
        sendText(#"{"type":"redeal","id":\#(seq)}"#, on: connection)
      }
      if configuration.mode == .play, connection.role == .host, wasOver, !connection.tracker.over {
        statistics.redeals += 1
      }
      checkReady(connection)
      if let seat = message["seat"]?.int, seat == connection.seat,
        let seq = message["replyTo"]?.int
      {
        answered(connection, seq: seq, error: nil, version: message["version"]?.int, now: now)
      }
    case "status":
      statistics.statusFrames += 1
    case "spectators":
      statistics.crowdCounts += 1
    case "snapshot":
      guard let table = message["table"] else { return }
      connection.tracker.applySnapshot(table: table)
      connection.seat = connection.role == .spectator ? nil : table["you"]?.int
      // A watching spectator's snapshot after a gap: its diffs are read for their version again.
      if connection.role == .spectator && connection.settled {
        stormReturned(connection, now: now)
        connection.watchedVersion = connection.tracker.version
      }
      if connection.role == .host, tables[connection.table].code == nil,
        let code = table["code"]?.string
      {
        tables[connection.table].code = code
        for member in tables[connection.table].members { join(connections[member]) }
        if configuration.crowdThreads > 0 {
          coordinator.publish(code: code, table: tableNumbers[connection.table])
        }
      }
      checkReady(connection)
    case "welcome":
      connection.welcomed = true
      connection.token = message["session"]?.string
      if connection.returning, message["resumed"]?.bool == true { statistics.stormResumed += 1 }
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

  /// A spectator read the diff that made `version`: the next one (timed against its move), one
  /// seen already, or a gap (a `resync`, and diffs are parsed again until its snapshot).
  func spectatorDiff(_ version: Int, on connection: Connection, now: UInt64) {
    statistics.diffsTotal += 1
    statistics.spectatorDiffs += 1
    if let timeline, now >= timeline.windowStart, now < timeline.windowEnd {
      statistics.diffsInWindow += 1
    }
    guard let seen = connection.watchedVersion, version > seen else { return }
    guard version == seen + 1 else {
      statistics.resyncs += 1
      connection.watchedVersion = nil
      sendText(#"{"type":"resync","id":3}"#, on: connection)
      return
    }
    connection.watchedVersion = version
    if let delay = deliveryArrived(table: connection.table, version: version, at: now) {
      statistics.spectatorLatency.record(max(1, delay / 1000))
    }
  }

  /// The version of a `diff` message, read from its first bytes without parsing it (the server
  /// writes `{"type":"diff","table":"…","version":N,…`), or nil for any other message.
  static func diffVersion(_ bytes: [UInt8]) -> Int? {
    let head = Array(#"{"type":"diff","#.utf8)
    guard bytes.count > head.count, bytes.starts(with: head) else { return nil }
    let key = Array(#""version":"#.utf8)
    let limit = min(bytes.count, 96)
    var index = head.count
    while index + key.count < limit {
      if bytes[index] == UInt8(ascii: "\""), bytes[index..<index + key.count].elementsEqual(key) {
        var at = index + key.count
        var value = 0
        var digits = 0
        while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]),
          digits < 12
        {
          value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
          at += 1
          digits += 1
        }
        return digits > 0 ? value : nil
      }
      index += 1
    }
    return nil
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
  func join(_ connection: Connection) {
    guard connection.role != .host, connection.welcomed, !connection.joinSent,
      let code = tables[connection.table].code
    else { return }
    if connection.role == .spectator && stormHoldsJoins {
      // Ready to watch: it asks when the storm comes.
      settle(connection, ready: true)
      return
    }
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
    // From now on a spectator's diffs are read for their version alone.
    if connection.role == .spectator { connection.watchedVersion = tracker.version }
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
