import Testing

@testable import Server

/// The crowds' fan-out takes at most its share of the service thread (``CrowdShare``): wall
/// time earns credit, the members' writes spend it, and a pass gives no turns once it is spent.
@Suite struct CrowdShareTests {
  @Test func unboundedTheCrowdsAlwaysHaveTheirTurns() {
    for share in [0, 1, 2, -0.5, .nan] {
      var crowds = CrowdShare(share: share)
      #expect(!crowds.isBounded)
      crowds.spent(10)
      #expect(crowds.turns(of: 8, at: 0) == 8)
      #expect(crowds.turns(of: 8, at: 0) == 8)
      #expect(crowds.wait(at: 0) == nil)
    }
  }

  /// Half the thread: 4 ms of wall time's worth (2 ms) to begin with; once 2.5 ms are spent the
  /// crowds wait 1 ms (half a millisecond earned at half the rate), then have their turns.
  @Test func spentCreditHoldsTheTurnsUntilWallTimeEarnsItBack() {
    var crowds = CrowdShare(share: 0.5)
    #expect(crowds.isBounded)
    #expect(crowds.turns(of: 8, at: 10) == 8)
    #expect(crowds.wait(at: 10) == nil)
    crowds.spent(0.0025)
    #expect(crowds.turns(of: 8, at: 10) == 0)
    #expect(abs(crowds.wait(at: 10)! - 0.001) < 1e-9)
    // A quarter of a millisecond later, three quarters are left to wait.
    #expect(abs(crowds.wait(at: 10.000_25)! - 0.000_75) < 1e-9)
    #expect(crowds.turns(of: 8, at: 10.0005) == 0)
    #expect(abs(crowds.wait(at: 10.0005)! - 0.0005) < 1e-9)
    #expect(crowds.turns(of: 8, at: 10.0011) == 8)
    #expect(crowds.wait(at: 10.0011) == nil)
  }

  /// However long nobody watches, the credit saved is the window's worth: a crowd that comes
  /// back takes the thread for at most that long before it is held to its share.
  @Test func creditIsKeptForAWindowOnly() {
    var crowds = CrowdShare(share: 0.25)
    #expect(crowds.turns(of: 8, at: 0) == 8)
    #expect(crowds.turns(of: 8, at: 3600) == 8)
    #expect(crowds.credit == 0.25 * CrowdShare.window)
    crowds.spent(0.25 * CrowdShare.window)
    #expect(crowds.turns(of: 8, at: 3600) == 0)
    // The clock going back (never, from a monotonic clock) earns nothing.
    #expect(crowds.turns(of: 8, at: 3599) == 0)
  }

  /// A pass may spend more than the credit left (its turns are given while any is left): the
  /// debt is paid back before the next turns.
  @Test func aDebtIsPaidBeforeTheNextTurns() {
    var crowds = CrowdShare(share: 0.5)
    #expect(crowds.turns(of: 3, at: 0) == 3)
    crowds.spent(0.010)
    // 8 ms over: 16 ms of wall time to earn it back.
    #expect(crowds.turns(of: 3, at: 0.015) == 0)
    #expect(abs(crowds.wait(at: 0.015)! - 0.001) < 1e-9)
    #expect(crowds.turns(of: 3, at: 0.0161) == 3)
  }
}
