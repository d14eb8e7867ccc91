/// A storm of the crowd (``LoadConfiguration/storm``): at one moment of the window every
/// spectator of this loop joins, leaves or reconnects at once. The players' loops time their
/// moves in the window before it and in the one that starts with it.
extension EventLoop {
  /// The moment of the storm on `timeline`.
  func stormMoment(on timeline: Timeline) -> UInt64 {
    timeline.windowStart + UInt64(configuration.stormAt * 1e9)
  }

  /// Whether a spectator's `spectate` waits for the storm (a join storm that has not come).
  var stormHoldsJoins: Bool { configuration.storm == .join && !stormCame }

  /// Brings the storm when its moment has come.
  func bringStormIfDue(now: UInt64, timeline: Timeline) {
    guard let storm = configuration.storm, !stormCame, now >= stormMoment(on: timeline) else {
      return
    }
    stormCame = true
    for connection in connections where connection.role == .spectator {
      switch storm {
      case .join:
        guard connection.state == .open else { continue }
        connection.returning = true
        join(connection)
      case .leave:
        guard connection.state == .open, connection.watchedVersion != nil else { continue }
        sendText(#"{"type":"leave","id":4}"#, on: connection)
      case .reconnect:
        guard connection.state == .open else { continue }
        // Dropped without a close frame, as a dead node's clients are; then at once again.
        closeSocket(connection)
        closedCount -= 1
        let next = connection.successor()
        next.returning = true
        connections[connection.index] = next
        startConnecting(next)
      }
      statistics.stormActed += 1
    }
  }

  /// A spectator that joined or reconnected in the storm has its snapshot.
  func stormReturned(_ connection: Connection, now: UInt64) {
    guard connection.returning, let timeline else { return }
    connection.returning = false
    statistics.stormReturnSeconds.append(Double(now &- stormMoment(on: timeline)) / 1e9)
  }

  /// Files a player's measured move, sent at `sent`, in the window before the storm or the one
  /// that starts with it.
  func recordStormLatency(sent: UInt64, microseconds: UInt64, timeline: Timeline) {
    guard configuration.storm != nil else { return }
    let moment = stormMoment(on: timeline)
    let window = UInt64(configuration.stormWindow * 1e9)
    if sent < moment && sent >= moment - window {
      statistics.latencyBeforeStorm.record(microseconds)
    } else if sent >= moment && sent < moment + window {
      statistics.latencyDuringStorm.record(microseconds)
    }
  }
}
