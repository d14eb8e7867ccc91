import Testing

@testable import Server

@Suite struct TokenBucketTests {
  @Test func startsFullAndAllowsTheBurst() {
    var bucket = TokenBucket(capacity: 40, refillPerSecond: 20, now: 100)
    for _ in 0..<40 {
      let result = bucket.take(now: 100)
      #expect(result)
    }
    let result11 = bucket.take(now: 100)
    #expect(!result11)
  }

  @Test func refillsWithElapsedTime() {
    var bucket = TokenBucket(capacity: 40, refillPerSecond: 20, now: 0)
    for _ in 0..<40 { _ = bucket.take(now: 0) }
    let result18 = bucket.take(now: 0.01)
    #expect(!result18)
    let refilled = bucket.take(now: 0.06)  // 0.06 s * 20/s = 1.2 tokens
    #expect(refilled)
    let result21 = bucket.take(now: 0.06)
    #expect(!result21)
    for _ in 0..<20 {
      let result = bucket.take(now: 1.06)
      #expect(result)
    }
    let result27 = bucket.take(now: 1.06)
    #expect(!result27)
  }

  @Test func neverHoldsMoreThanCapacity() {
    var bucket = TokenBucket(capacity: 3, refillPerSecond: 100, now: 0)
    _ = bucket.take(now: 0)
    _ = bucket.take(now: 1_000)
    #expect(bucket.tokens == 2)
    let result36 = bucket.take(now: 1_000)
    #expect(result36)
    let result38 = bucket.take(now: 1_000)
    #expect(result38)
    let result40 = bucket.take(now: 1_000)
    #expect(!result40)
  }

  @Test func aClockGoingBackwardsRefillsNothing() {
    var bucket = TokenBucket(capacity: 1, refillPerSecond: 1, now: 10)
    let result46 = bucket.take(now: 10)
    #expect(result46)
    let result48 = bucket.take(now: 5)
    #expect(!result48)
    #expect(bucket.lastRefill == 10)
    let result51 = bucket.take(now: 11)
    #expect(result51)
  }

  @Test func aSustainedRateAtTheRefillSpeedIsAllowed() {
    var bucket = TokenBucket(capacity: 40, refillPerSecond: 20, now: 0)
    var refused = 0
    for index in 0..<2_000 where !bucket.take(now: Double(index) * 0.05) { refused += 1 }
    #expect(refused == 0)
  }

  @Test func aFloodIsCutAfterTheBurst() {
    var bucket = TokenBucket(capacity: 40, refillPerSecond: 20, now: 0)
    // 1,000 messages within 10 ms: the burst plus at most a fraction of a token.
    let allowed = (0..<1_000).filter { bucket.take(now: Double($0) * 0.000_01) }.count
    #expect(allowed == 40)
  }

  @Test func costLargerThanOneTakesSeveralTokens() {
    var bucket = TokenBucket(capacity: 5, refillPerSecond: 0, now: 0)
    let result71 = bucket.take(now: 0, cost: 3)
    #expect(result71)
    let result73 = bucket.take(now: 0, cost: 3)
    #expect(!result73)
    let result75 = bucket.take(now: 0, cost: 2)
    #expect(result75)
    #expect(bucket.tokens == 0)
  }
}
