import CEventPass
import CWebSockets
import Glibc

/// Bounded passes, players first (issue 36). A pass of the loop takes at most
/// ``TransportConfiguration/eventsPerPass`` socket events (the C target `CEventPass`), and one
/// that begins with more than ``TransportConfiguration/firstServedAbove`` callbacks to run
/// first reads the players of watched tables (``FirstServed``) and writes what that decided
/// for them. A crowd of 10,000 that dropped at once made one pass of 10,000 closes, 170-310
/// ms on 16 cores, and the players' moves waited behind it (docs/BENCHMARKS.md, "Bounded
/// passes, players first").
extension ServiceLoop {
  /// Caps the waits of this thread, the service thread, before its loop runs.
  func boundPasses() {
    event_pass_cap_events(Int32(clamping: configuration.eventsPerPass))
  }

  /// libev's first callback of a pass (its highest-priority check, right after the wait).
  func passBegins() {
    inbox.markAwake()
    guard let eventLoop else { return }
    passIsBusy = eventLoop.pendingEvents > configuration.firstServedAbove
    guard passIsBusy, firstServed.count > 0 else { return }
    servingFirst = true
    firstServed.forEachReady { eventLoop.serve(fd: $0, events: Int32(POLLIN)) }
    servingFirst = false
    writeFirst()
  }

  /// Runs `body`; in a busy pass, what it queued for connections served first is written
  /// right after it rather than when their turn to write comes.
  func writingFirst(_ body: () -> Void) {
    guard passIsBusy && !servingFirst else { return body() }
    servingFirst = true
    body()
    servingFirst = false
    writeFirst()
  }

  /// `state` is served first if it is a client's connection, open, read, and in no crowd.
  func serveFirstIfPlaying(_ state: ConnectionState) {
    guard !state.isLink, state.crowd == nil, state.isOpenForSending,
      !gate.paused.contains(state.id)
    else { return }
    firstServed.add(state)
  }

  /// Notes the connections a `send` went to (see ``servePlayersFirst()``).
  func noteSend(to ids: [ConnectionID]) {
    if lastSent.count + ids.count <= Self.seatsAtMost {
      lastSent.append(contentsOf: ids)
    } else {
      lastSent.removeAll(keepingCapacity: true)
    }
  }

  /// A table's frame for its crowd follows the same change's frames for its players (the
  /// lobby's order: ``Lobby/TableHost``), so the few connections sent to just before a
  /// `sendToCrowd` are the players of a watched table: they are served first from now on.
  /// Connections in the lobby are not (a crowd of 10,000 asking at once to watch would be
  /// ahead of the players); a player that leaves for the lobby stays served first, and one that
  /// joins a crowd is served in turn.
  func servePlayersFirst() {
    for id in lastSent {
      if let state = connections[id] { serveFirstIfPlaying(state) }
    }
    lastSent.removeAll(keepingCapacity: true)
  }

  /// Most connections of the `send`s before a `sendToCrowd` taken for a table's players.
  static let seatsAtMost = 8

  /// Writes now what was asked for connections served first while ``servingFirst`` was on:
  /// lws is handed their sockets as writable, and runs their writable callbacks (which write
  /// what the socket takes and keep the rest, as always).
  private func writeFirst() {
    guard let eventLoop, !firstWrites.isEmpty else { return }
    for state in firstWrites {
      guard state.writeRequested, connections[state.id] === state else { continue }
      let fd = lws_get_socket_fd(state.wsi)
      if fd >= 0 { eventLoop.serve(fd: fd, events: Int32(POLLOUT)) }
    }
    firstWrites.removeAll(keepingCapacity: firstWrites.capacity <= 1024)
  }
}
