/// The transport's keepalive: which silent connections get a PING and which are dropped, on a
/// `KeepaliveWheel`. A pure value; the service thread calls `takeDue` from a once-a-second lws
/// timer and carries out each connection's `Verdict`.
///
/// Silence counts from the connection's last sign of life (it opened, a message or a PONG
/// arrived). After `pingIdleSeconds` of it the connection gets a PING, after
/// `hangupIdleSeconds` it is dropped. A connection is looked at only when its slot on the wheel
/// comes up, and then scheduled again for what it needs next.
struct KeepaliveTimer {
  /// What to do with one connection whose slot came up.
  enum Verdict: Equatable {
    /// Its close is under way, with deadlines of its own: it leaves the keepalive.
    case leave
    /// Silent too long: drop it without a close frame (a peer that answers no PING would not
    /// read one either). It leaves the keepalive.
    case hangUp(silentSeconds: Double)
    /// Send it a PING (its state is now `.wanted`); it is scheduled again.
    case ping
    /// Nothing now; it is scheduled again.
    case wait
  }

  /// Seconds of silence before a PING; 0 turns the keepalive off.
  let pingIdleSeconds: Double
  /// Seconds of silence before the connection is dropped.
  let hangupIdleSeconds: Double
  private var wheel: KeepaliveWheel

  /// A keepalive with the given idle times, starting at `now` (monotonic seconds).
  init(pingIdleSeconds: Double, hangupIdleSeconds: Double, now: Double) {
    self.pingIdleSeconds = pingIdleSeconds
    self.hangupIdleSeconds = hangupIdleSeconds
    // Enough slots that a hang-up deadline never wraps around the wheel.
    wheel = KeepaliveWheel(slotCount: min(4096, Int(hangupIdleSeconds) + 2), now: now)
  }

  /// Whether connections are pinged at all.
  var isOn: Bool { pingIdleSeconds > 0 }

  /// Connections waiting on the wheel (a closed one stays until its slot comes up).
  var scheduledCount: Int { wheel.count }

  /// A connection opened at `now`: it is looked at once it could be due for a PING.
  mutating func opened(_ id: ConnectionID, now: Double) {
    if isOn { wheel.schedule(id, at: now + pingIdleSeconds) }
  }

  /// Moves the connections whose slot came up by `now` into `due`, in slot order. Each one
  /// must then be given to `check` (or dropped if it closed).
  mutating func takeDue(upTo now: Double, into due: inout [ConnectionID]) {
    wheel.takeDue(upTo: now, into: &due)
  }

  /// Decides about connection `id`, last alive at `lastAlive`, whose slot came up, and
  /// schedules it again unless it leaves the keepalive. `ping` is its PING state.
  mutating func check(
    _ id: ConnectionID, lastAlive: Double, ping: inout ConnectionState.PingState,
    closing: Bool, now: Double
  ) -> Verdict {
    if closing { return .leave }
    let silent = now - lastAlive
    if silent >= hangupIdleSeconds { return .hangUp(silentSeconds: silent) }
    var verdict = Verdict.wait
    if silent >= pingIdleSeconds && ping == .none {
      ping = .wanted
      verdict = .ping
    }
    // With a PING out, the next thing that can happen is the hang-up.
    let next = ping == .none ? pingIdleSeconds : hangupIdleSeconds
    wheel.schedule(id, at: lastAlive + next)
    return verdict
  }

  /// A PONG arrived (an unsolicited one too: RFC 6455 allows it as a heartbeat) at `now`.
  static func pongArrived(
    now: Double, lastAlive: inout Double, ping: inout ConnectionState.PingState
  ) {
    lastAlive = now
    if ping == .sent { ping = .none }
  }
}
