import Testing

@testable import Server

/// Whether the service thread is pressed (``PressureHold``): either of a pass's two signs, held
/// a second after the last pass that showed one.
@Suite struct PressureHoldTests {
  @Test func aPassWithNoSignIsNotPressed() {
    var hold = PressureHold()
    let pressed = hold.passEnded(crowdBehind: false, connectionsWaiting: false, at: 10)
    #expect(!pressed)
  }

  @Test(arguments: [(true, false), (false, true), (true, true)])
  func eachSignPresses(crowdBehind: Bool, connectionsWaiting: Bool) {
    var hold = PressureHold()
    let pressed = hold.passEnded(
      crowdBehind: crowdBehind, connectionsWaiting: connectionsWaiting, at: 10)
    #expect(pressed)
  }

  /// A storm presses in bursts: the passes between them still count as pressed, until a
  /// second has gone by without a sign.
  @Test func theWordHoldsASecondAfterTheLastPassThatPressed() {
    var hold = PressureHold()
    func quietPass(at now: Double) -> Bool {
      hold.passEnded(crowdBehind: false, connectionsWaiting: false, at: now)
    }
    func waitingPass(at now: Double) -> Bool {
      hold.passEnded(crowdBehind: false, connectionsWaiting: true, at: now)
    }
    let seen = [
      waitingPass(at: 10), quietPass(at: 10.5), waitingPass(at: 10.6), quietPass(at: 11.5),
      quietPass(at: 10.6 + PressureHold.hold), quietPass(at: 20),
    ]
    #expect(seen == [true, true, true, true, false, false])
  }
}
