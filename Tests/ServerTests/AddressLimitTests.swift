import Testing

@testable import Server

/// How many connections one address may hold.
@Suite struct AddressLimitTests {
  @Test func theConnectionOverTheLimitIsRefusedAndNoOther() {
    var limit = AddressLimit(limit: 2)
    let first = limit.admit("10.0.0.1")
    let second = limit.admit("10.0.0.1")
    let third = limit.admit("10.0.0.1")
    #expect(first && second && !third)
    // A refusal is not counted; other addresses have their own count.
    #expect(limit.counts["10.0.0.1"] == 2)
    let other = limit.admit("10.0.0.2")
    let sixth = limit.admit("::1")
    #expect(other && sixth)
  }

  @Test func aClosedConnectionFreesItsPlace() {
    var limit = AddressLimit(limit: 1)
    let first = limit.admit("10.0.0.1")
    let second = limit.admit("10.0.0.1")
    #expect(first && !second)
    limit.release("10.0.0.1")
    #expect(limit.counts.isEmpty)
    let again = limit.admit("10.0.0.1")
    #expect(again)
    // Releasing an address that holds nothing changes nothing.
    limit.release("10.9.9.9")
    #expect(limit.counts == ["10.0.0.1": 1])
  }

  @Test func zeroMeansNoLimitAndNothingCounted() {
    var limit = AddressLimit(limit: 0)
    #expect(!limit.isOn)
    var admitted = 0
    for _ in 0..<10_000 where limit.admit("10.0.0.1") { admitted += 1 }
    #expect(admitted == 10_000)
    #expect(limit.counts.isEmpty)
  }
}
