import Testing

@testable import Server

/// Which silent connections get a PING and which are dropped, second by second.
@Suite struct KeepaliveTimerTests {
  private static let id = ConnectionID(rawValue: 7)

  private static func due(_ timer: inout KeepaliveTimer, at now: Double) -> [UInt64] {
    var taken: [ConnectionID] = []
    timer.takeDue(upTo: now, into: &taken)
    return taken.map(\.rawValue)
  }

  @Test func offMeansNoConnectionIsEverScheduled() {
    var timer = KeepaliveTimer(pingIdleSeconds: 0, hangupIdleSeconds: 60, now: 0)
    #expect(!timer.isOn)
    timer.opened(Self.id, now: 0)
    #expect(timer.scheduledCount == 0)
  }

  @Test func aSilentConnectionIsPingedThenDropped() {
    var timer = KeepaliveTimer(pingIdleSeconds: 5, hangupIdleSeconds: 12, now: 100)
    var ping = ConnectionState.PingState.none
    timer.opened(Self.id, now: 100)
    #expect(Self.due(&timer, at: 104.9) == [])
    #expect(Self.due(&timer, at: 105) == [7])
    #expect(timer.check(Self.id, lastAlive: 100, ping: &ping, closing: false, now: 105) == .ping)
    #expect(ping == .wanted)
    // With a PING out, it is looked at next when it would be dropped.
    ping = .sent
    #expect(Self.due(&timer, at: 111.9) == [])
    #expect(Self.due(&timer, at: 112) == [7])
    #expect(
      timer.check(Self.id, lastAlive: 100, ping: &ping, closing: false, now: 112)
        == .hangUp(silentSeconds: 12))
    // Dropped: it leaves the wheel.
    #expect(timer.scheduledCount == 0)
  }

  @Test func anActiveConnectionIsLookedAtAgainFromItsLastMessage() {
    var timer = KeepaliveTimer(pingIdleSeconds: 5, hangupIdleSeconds: 12, now: 100)
    var ping = ConnectionState.PingState.none
    timer.opened(Self.id, now: 100)
    _ = Self.due(&timer, at: 105)
    // A message at 103: not silent long enough, so no PING; next look at 108.
    #expect(timer.check(Self.id, lastAlive: 103, ping: &ping, closing: false, now: 105) == .wait)
    #expect(ping == .none)
    #expect(Self.due(&timer, at: 107.9) == [])
    #expect(Self.due(&timer, at: 108) == [7])
    #expect(timer.check(Self.id, lastAlive: 103, ping: &ping, closing: false, now: 108) == .ping)
  }

  @Test func aPongStartsTheSilenceAgain() {
    var timer = KeepaliveTimer(pingIdleSeconds: 5, hangupIdleSeconds: 12, now: 0)
    var lastAlive = 0.0
    var ping = ConnectionState.PingState.sent
    KeepaliveTimer.pongArrived(now: 6, lastAlive: &lastAlive, ping: &ping)
    #expect(lastAlive == 6 && ping == .none)
    #expect(
      timer.check(Self.id, lastAlive: lastAlive, ping: &ping, closing: false, now: 12) == .ping)
    // A PONG nobody asked for is a heartbeat: it does not cancel a PING still to be written.
    ping = .wanted
    KeepaliveTimer.pongArrived(now: 13, lastAlive: &lastAlive, ping: &ping)
    #expect(lastAlive == 13 && ping == .wanted)
  }

  @Test func aPingNotYetAnsweredIsNotSentTwice() {
    var timer = KeepaliveTimer(pingIdleSeconds: 5, hangupIdleSeconds: 12, now: 0)
    var ping = ConnectionState.PingState.wanted
    #expect(timer.check(Self.id, lastAlive: 0, ping: &ping, closing: false, now: 8) == .wait)
    ping = .sent
    #expect(timer.check(Self.id, lastAlive: 0, ping: &ping, closing: false, now: 9) == .wait)
    #expect(timer.scheduledCount == 2)
  }

  @Test func aClosingConnectionLeavesTheKeepaliveToItsCloseDeadlines() {
    var timer = KeepaliveTimer(pingIdleSeconds: 5, hangupIdleSeconds: 12, now: 0)
    var ping = ConnectionState.PingState.none
    #expect(timer.check(Self.id, lastAlive: 0, ping: &ping, closing: true, now: 30) == .leave)
    #expect(ping == .none)
    #expect(timer.scheduledCount == 0)
  }
}
