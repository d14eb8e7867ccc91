import CLoadSystem
import Glibc

/// Clients that stop reading (``LoadConfiguration/stallAt``): the last seat of each of the
/// first `stallTables` tables stops reading its socket and sending moves at its table's stall,
/// and the loop records what its table mates see: their move latency just before and just after
/// the stall, the `away` of the stalled seat, and every other membership event at the table.
extension EventLoop {
  /// Membership events: everything a table mate could notice about a seat besides moves.
  static let membershipKinds: Set<String> = [
    "join", "leave", "away", "back", "host", "phase", "vote", "spectators",
  ]

  /// Marks the connections that will stall (called once, at start).
  func markStallingSeats() {
    guard configuration.stallAt != nil else { return }
    stallBegan = Array(repeating: nil, count: min(configuration.stallTables, tables.count))
    stallCutAt = stallBegan
    for table in stallBegan.indices {
      connections[stalledMember(of: table)].stalls = true
    }
  }

  /// The index of the connection that stalls at `table`.
  private func stalledMember(of table: Int) -> Int {
    tables[table].members[configuration.seats - 1]
  }

  /// When `table` stalls on `timeline`, or nil if it does not.
  func stallMoment(ofTable table: Int, on timeline: Timeline) -> UInt64? {
    configuration.stallSecond(ofTable: table).map { timeline.windowStart + UInt64($0 * 1e9) }
  }

  /// Asks for a small receive buffer on a stalling seat's socket, before it connects (the
  /// window is negotiated then).
  func prepareStallingSocket(_ fd: Int32, for connection: Connection) {
    guard connection.stalls else { return }
    var bytes = LoadConfiguration.stalledReceiveBuffer
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Stalls every table whose moment has come.
  func beginDueStalls(now: UInt64, timeline: Timeline) {
    for table in stallBegan.indices where stallBegan[table] == nil {
      guard let moment = stallMoment(ofTable: table, on: timeline), now >= moment else { continue }
      stallBegan[table] = now
      let connection = connections[stalledMember(of: table)]
      guard connection.state == .open else { continue }
      connection.stalled = true
      connection.unreadGrewAt = now
      connection.timerAt = .max
      pendingCount -= connection.pending.count
      connection.pending.removeAll()
      // Neither readable nor writable interests it any more: the socket is left as it is.
      var event = epoll_event(events: 0, data: epoll_data_t(u64: UInt64(connection.index)))
      epoll_ctl(epollFD, EPOLL_CTL_MOD, connection.fd, &event)
      connection.watchingWrite = false
    }
  }

  /// Watches each stalled seat's unread bytes: when they stop growing, its window has shut
  /// (the server's writes stop leaving), and the server's clock starts.
  func watchStalledSockets(now: UInt64) {
    for table in stallBegan.indices where stallBegan[table] != nil {
      let connection = connections[stalledMember(of: table)]
      guard connection.stalled, connection.fd >= 0 else { continue }
      let unread = load_unread_bytes(connection.fd)
      if unread > connection.unreadBytes {
        connection.unreadBytes = unread
        connection.unreadGrewAt = now
      }
    }
  }

  /// The server closed a stalled seat's connection (epoll reports an error or a hang-up on a
  /// socket nobody reads): the time since its stall and since its window shut are recorded,
  /// and the socket closed.
  func stalledSeatEnded(_ connection: Connection, now: UInt64) {
    if stallBegan.indices.contains(connection.table), let began = stallBegan[connection.table] {
      statistics.stallCutSeconds.append(Double(now &- began) / 1e9)
      statistics.stallCutAfterShutSeconds.append(Double(now &- connection.unreadGrewAt) / 1e9)
      stallCutAt[connection.table] = now
    }
    closeSocket(connection)
  }

  /// Records a measured move's latency (µs): a stalled seat's mate's into the window around
  /// its table's stall that the move's schedule falls in, and every move scheduled while some
  /// table is in its stall window, at a table that is not, into the concurrent control.
  func recordStallLatency(
    of connection: Connection, sent: UInt64, microseconds: UInt64, timeline: Timeline
  ) {
    guard !connection.stalls, let first = stallMoment(ofTable: 0, on: timeline) else { return }
    let window = UInt64(configuration.stallWindow * 1e9)
    let last = stallMoment(ofTable: stallBegan.count - 1, on: timeline) ?? first
    if let stall = stallMoment(ofTable: connection.table, on: timeline),
      sent >= stall && sent < stall + window
    {
      statistics.latencyDuringStall.record(microseconds)
      return
    }
    if sent >= first && sent < last + window {
      statistics.latencyBesideStall.record(microseconds)
    }
    if let stall = stallMoment(ofTable: connection.table, on: timeline),
      sent < stall && sent >= stall - window
    {
      statistics.latencyBeforeStall.record(microseconds)
    }
  }

  /// A diff that a table's host applied: if the table's seat has stalled, its membership
  /// events are counted and the stalled seat's `away` timed.
  func observeStallTable(_ diff: JSON, on connection: Connection, now: UInt64) {
    guard connection.role == .host, stallBegan.indices.contains(connection.table),
      let began = stallBegan[connection.table]
    else { return }
    let stalledSeat = connections[stalledMember(of: connection.table)].seat
    for event in diff["events"]?.array ?? [] {
      guard let kind = event["kind"]?.string, Self.membershipKinds.contains(kind) else {
        continue
      }
      statistics.stallTableEvents[kind, default: 0] += 1
      if kind == "away", event["seat"]?.int == stalledSeat {
        statistics.stallAwaySeconds.append(Double(now &- began) / 1e9)
        // The cut is seen first when the host's loop handles both in one pass; else 0.
        let cut = stallCutAt[connection.table] ?? now
        statistics.stallAwayAfterCutSeconds.append(Double(now &- min(cut, now)) / 1e9)
      }
    }
  }
}
