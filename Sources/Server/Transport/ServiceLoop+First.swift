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

  /// The pass's events are over (its prepare callback, before the loop's own work and the
  /// wait): how many the next pass takes is set from their time (``PassPacing``). The loop's
  /// own work before the wait (new connections let in, ``betweenSteps()`` after each) is not
  /// counted: it is bounded apart, and would hold the next pass to the fewest events.
  func paceNextPass() {
    guard let began = passBeganAt else { return }
    passBeganAt = nil
    let seconds = MonotonicClock.threadCPU() - began
    metrics?.passTook(cpuSeconds: seconds)
    let cap = passPacing.passEnded(events: Int(event_pass_events_taken()), seconds: seconds)
    event_pass_cap_events(Int32(clamping: cap))
  }

  /// libev's first callback of a pass (its highest-priority check, right after the wait). A
  /// pass is busy when it has more than ``TransportConfiguration/firstServedAbove`` callbacks
  /// to run, or took all the events a slowed pace gives it (more wait, and each costs much).
  func passBegins() {
    inbox.markAwake()
    // Unpaced (no budget), a pass is not timed: the thread's CPU clock is a system call.
    passBeganAt = passPacing.budget > 0 ? MonotonicClock.threadCPU() : nil
    guard let eventLoop else { return }
    passIsBusy =
      eventLoop.pendingEvents > configuration.firstServedAbove
      || (passPacing.isSlowed && Int(event_pass_events_taken()) >= passPacing.cap)
    readPlayersFirst(eventLoop)
  }

  /// Between two steps of the loop's own work outside lws' callbacks (each new connection let
  /// in, up to 40 µs in a reconnect storm): what the journal wrote meanwhile is let go, and in
  /// a busy pass the players with input are read and written.
  func betweenSteps() {
    releaseWritten()
    if let eventLoop { readPlayersFirst(eventLoop) }
  }

  /// In a busy pass, reads the players with input waiting and writes what that decided for
  /// them.
  private func readPlayersFirst(_ eventLoop: LWSEventLoop) {
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
