import CWebSockets
import Glibc

/// New connections let into lws a few a pass (``AcceptPacing``), so that thousands connecting
/// at once do not hold the players' moves up for the seconds their upgrades take.
extension ServiceLoop {
  /// `LWS_CALLBACK_FILTER_NETWORK_CONNECTION`: the listening socket `listener` accepted `fd`.
  /// 0 lets lws take it now. Otherwise it waits: a duplicate of it is kept, lws closes its own
  /// descriptor (the socket stays open) and stops accepting for this pass; a step of the listen
  /// queue (``AcceptPacing/takeStep(from:)``) is taken here to wait behind it, and the rest in
  /// steps when the pass ends (``takeListenQueue()``).
  func accepted(_ fd: Int32, by listener: OpaquePointer) -> Int32 {
    // Only the game's port is paced (the metrics port's few requests are not).
    guard let eventLoop, lws_get_vhost(listener) == eventLoop.gameVhost else { return 0 }
    switch pacing.accepted() {
    case .now:
      return 0
    case .refuse:
      return 1
    case .wait:
      let kept = dup(fd)
      guard kept >= 0 else { return 0 }
      pacing.wait(kept)
      let listening = lws_get_socket_fd(listener)
      pacing.listener = listening
      let taken = pacing.takeStep { Self.acceptNext(listening) }
      metrics?.connectionsWaited(1 + taken)
      return 1
    }
  }

  /// While connections wait, at the pass's end: the listen queue taken to wait behind them,
  /// ``AcceptPacing/perStep`` at a time with the players served between
  /// (``betweenSteps()``), until it is empty, the wait is full, or ``AcceptPacing/stepsPerPass``
  /// steps were taken.
  private func takeListenQueue() {
    guard pacing.hasWaiting, let listening = pacing.listener else { return }
    for _ in 0..<AcceptPacing.stepsPerPass {
      let taken = pacing.takeStep { Self.acceptNext(listening) }
      metrics?.connectionsWaited(taken)
      guard taken == AcceptPacing.perStep else { return }
      betweenSteps()
    }
  }

  /// The next connection in listening socket `listening`'s queue, `nil` when none waits.
  private static func acceptNext(_ listening: Int32) -> Int32? {
    let fd = shim_accept_next(listening)
    return fd >= 0 ? fd : nil
  }

  /// Before the loop waits, every pass: the pass's budget is renewed, and the next
  /// connections are handed to lws and read at once; while more wait, the loop does not sleep.
  ///
  /// Read at once, not when the kernel reports them: in a reconnect storm their upgrade
  /// requests were ready behind thousands of other sockets' events, and each connection let in
  /// meanwhile stayed in lws' lists of connections in their upgrade (its timeout in a sorted
  /// list, its header table), which every new one walks. The spectators of a reconnect storm of
  /// 10,000 were all back in 3.3-4.8 s with paced passes before, 2.3-2.8 s after
  /// (docs/BENCHMARKS.md, "Passes paced by their time").
  func letWaitingConnectionsIn() {
    // Fewer while passes are slowed: each new connection brings events of its own (its
    // upgrade, its first messages), and lws' lists of connections in their upgrade grow with
    // every one let in, which each new one walks.
    let perPass = passPacing.share(of: AcceptPacing.perPass)
    takeListenQueue()
    guard pacing.hasWaiting else {
      pacing.renewBudget(perPass: perPass)
      return
    }
    let taken = pacing.passEnded(perPass: perPass)
    guard let eventLoop, let vhost = eventLoop.gameVhost else {
      for fd in taken { close(fd) }
      return
    }
    let tls: Int32 = configuration.usesTLS ? 1 : 0
    for fd in taken {
      // A socket lws refuses is closed by it. One it takes is read now: its upgrade request
      // is most likely there (it waited here for its turn); if not, lws finds nothing to read
      // and waits for it as always.
      if shim_adopt_accepted(vhost, fd, tls) != nil {
        eventLoop.serve(fd: fd, events: Int32(POLLIN))
      }
      betweenSteps()
    }
    if pacing.hasWaiting { eventLoop.schedule(.acceptPacing, in: 0) }
  }

  /// The loop is ending: the connections still waiting are closed.
  func closeWaitingConnections() {
    for fd in pacing.removeAll() { close(fd) }
  }
}
