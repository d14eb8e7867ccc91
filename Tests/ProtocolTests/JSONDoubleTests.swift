import Testing

@testable import Protocol

/// Numbers of a few decimals are written as `String(d)` writes them, without its general
/// algorithm (``JSONValue/writeFewDecimals(_:to:)``); every other number is left to it.
@Suite struct JSONDoubleTests {
  func written(_ d: Double) -> String {
    var out: [UInt8] = []
    JSONValue.writeDouble(d, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// What the general path writes (whole numbers below 10^15 as integers, as before).
  func expected(_ d: Double) -> String {
    if d == d.rounded() && abs(d) < 1e15 { return String(Int(d)) }
    return String(d)
  }

  @Test func tenthsHundredthsAndThousandthsAreWrittenAsStringWritesThem() {
    var generator = SystemRandomNumberGenerator()
    for places in 1...3 {
      let scale = [1.0, 10, 100, 1000][places]
      // Most below 10^9 (the fast form), some above (the general one).
      let bound = Int(1.2e9 * scale)
      var fast = 0
      for _ in 0..<20_000 {
        let n = Double(Int.random(in: -bound...bound, using: &generator))
        let d = n / scale
        var out: [UInt8] = []
        if JSONValue.writeFewDecimals(d, to: &out) { fast += 1 }
        #expect(written(d) == expected(d), "\(n) / \(scale)")
      }
      #expect(fast > 10_000)
      for n in [1.0, 5, 9, 10, 11, 99, 101, 999, 1001, 12_345, 999_999_999_999] {
        for d in [n / scale, -n / scale] {
          #expect(written(d) == expected(d), "\(d)")
        }
      }
    }
  }

  @Test func otherNumbersAreLeftToTheGeneralForm() {
    var out: [UInt8] = []
    for d in [0.0001, 0.000_999, 1e9 + 0.5, 1e12 + 0.25, 1.0 / 3, 0.1 + 0.2, 2.6751, 1e-300] {
      #expect(!JSONValue.writeFewDecimals(d, to: &out), "\(d)")
      #expect(written(d) == expected(d), "\(d)")
    }
    #expect(out.isEmpty)
    for _ in 0..<20_000 {
      let d = Double.random(in: -1e10...1e10)
      #expect(written(d) == expected(d), "\(d)")
    }
    #expect(written(.infinity) == "null")
    #expect(written(-.nan) == "null")
  }
}
