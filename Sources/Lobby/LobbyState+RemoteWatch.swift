import Protocol

/// Spectators of other nodes' tables, watching from this node (``RemoteWatch``): what the
/// router does when one asks, when a link is lost, and when the table is looked for again.
extension LobbyState {
  /// Links lost in a row (or tables not found again), without a snapshot between, before the
  /// spectators are let go: 20 looks a second apart outlast a dead node's lease and the
  /// takeover of its tables (a few seconds), and the directory's while it learns of it.
  static let remoteWatchLosses = 20
  /// Seconds between a link's loss and the look for where its table is (the directory learns
  /// of a takeover within a few seconds).
  static let remoteWatchPause = 1.0

  /// `connection` (of `session`) asked to spectate the table of `entry`, which another node
  /// holds: it watches from here, through this node's link to that one, unless that node
  /// names no `ws://` address for the nodes (then it is redirected there). Whether it does.
  mutating func watchRemotely(
    _ entry: TableDirectory.Entry, _ session: SessionRegistry.Session,
    _ connection: ConnectionID, replyTo: MessageID?, now: Double
  ) -> Bool {
    guard let url = entry.linkURL, url.hasPrefix("ws://") else { return false }
    let table = entry.listing.id
    guard
      remote.table(watchedBy: connection) == table
        || remote.spectators(of: table) < configuration.spectatorLimit
    else {
      reply(
        ProtocolError(
          .spectatorLimit, "This table has as many spectators as it takes.", replyTo: replyTo),
        to: connection)
      return true
    }
    leaveTable(session, now: now)
    out += remote.watch(table, code: entry.code, at: url, connection, replyTo: replyTo)
    if deadlines.deadline(of: .remoteCounts) == nil {
      deadlines.schedule(.remoteCounts, at: now + CrowdCount.interval)
    }
    return true
  }

  /// Link `link` closed: if it carried a table someone here watches, where the table is is
  /// looked for again after a pause (``findWatchedTable(_:now:)``); after too many losses in
  /// a row its spectators are let go.
  mutating func linkLost(_ link: ConnectionID, now: Double) {
    guard case .retry(let table, let losses) = remote.linkClosed(link) else { return }
    if losses > Self.remoteWatchLosses {
      stopWatching(table)
    } else {
      deadlines.schedule(.remoteWatch(table), at: now + Self.remoteWatchPause)
    }
  }

  /// Where table `table`, watched through a lost link, is now: at another node (watched there
  /// through a new link), here (its spectators watch it here), or nowhere (they are told they
  /// left it).
  mutating func findWatchedTable(_ table: String, now: Double) {
    if hosts.contains(table) {
      let (actions, spectators) = remote.drop(table)
      out += actions
      for connection in spectators {
        guard let session = desk.session(for: connection), session.tableID == nil else {
          continue
        }
        move(session, connection, to: table, asPlayer: false, replyTo: nil, now: now)
      }
    } else if let entry = feed.remoteEntry(table), let url = entry.linkURL, url.hasPrefix("ws://") {
      out += remote.reconnect(table, to: url)
    } else if remote.lostAgain(table) <= Self.remoteWatchLosses {
      // Not listed now: a dead node's tables may be off the list until a live one takes them.
      deadlines.schedule(.remoteWatch(table), at: now + Self.remoteWatchPause)
    } else {
      stopWatching(table)
    }
  }

  /// The links say, at most once a second, how many spectators each watches for here (once
  /// it changed): the tables' nodes count them.
  mutating func reportRemoteCounts(now: Double) {
    out += remote.countReports()
    if !remote.tables.isEmpty { deadlines.schedule(.remoteCounts, at: now + CrowdCount.interval) }
  }

  /// Lets the spectators of `table` go: they hear that they left it.
  private mutating func stopWatching(_ table: String) {
    let (actions, spectators) = remote.drop(table)
    out += actions
    if !spectators.isEmpty {
      out.append(.send(Frame(ServerMessage.left(replyTo: nil)), to: spectators))
    }
  }
}
