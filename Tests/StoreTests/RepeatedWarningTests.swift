import Testing

@testable import Store

/// An outage's warnings: the first at once, then one every interval with the count left out.
@Suite struct RepeatedWarningTests {
  @Test func theFirstAtOnceThenOneAnIntervalWithHowManyWereLeftOut() {
    let warning = RepeatedWarning(interval: 5)
    #expect(warning.admit(at: 100) == 0)
    #expect(warning.admit(at: 101) == nil)
    #expect(warning.admit(at: 104.9) == nil)
    #expect(warning.admit(at: 105) == 2)
    #expect(warning.admit(at: 106) == nil)
    // A new outage after a quiet spell: at once.
    #expect(warning.admit(at: 200) == 1)
    #expect(warning.admit(at: 200.5) == nil)
  }
}
