import Testing

@testable import Server

/// Which WebSocket upgrades are refused, and with what.
@Suite struct UpgradeFilterTests {
  private static func filter(max: Int = 10, allowed: [String] = []) -> UpgradeFilter {
    UpgradeFilter(maxConnections: max, originPolicy: OriginPolicy(allowedOrigins: allowed))
  }

  private static func request(
    version: String? = "13", origin: String? = nil, host: String? = "game.example"
  ) -> UpgradeFilter.Request {
    UpgradeFilter.Request(version: version, origin: origin, host: host)
  }

  @Test func version13FromAnywhereButABrowserIsAccepted() {
    var filter = Self.filter()
    #expect(
      filter.decide(Self.request(), openConnections: 0, shuttingDown: false, now: 0) == .accept)
  }

  @Test func anyOtherVersionIsRefusedWithoutAnAnswer() {
    var filter = Self.filter()
    for version in ["8", "14", "13 ", "", nil] as [String?] {
      #expect(
        filter.decide(
          Self.request(version: version), openConnections: 0, shuttingDown: false, now: 0)
          == .refuse)
    }
  }

  @Test func nothingUpgradesDuringAShutdown() {
    var filter = Self.filter(max: 1)
    #expect(
      filter.decide(Self.request(), openConnections: 5, shuttingDown: true, now: 0) == .refuse)
    // Not counted as refused at the limit.
    #expect(filter.refusedAtLimit == 0)
  }

  @Test func atTheLimitRefusalsAreCountedAndWarnedAboutEveryTenSeconds() {
    var filter = Self.filter(max: 2)
    func atLimit(_ now: Double) -> UpgradeFilter.Decision {
      filter.decide(Self.request(), openConnections: 2, shuttingDown: false, now: now)
    }
    #expect(atLimit(100) == .refuseAtLimit(warning: 1))
    #expect(atLimit(105) == .refuseAtLimit(warning: nil))
    #expect(atLimit(109.9) == .refuseAtLimit(warning: nil))
    #expect(atLimit(110) == .refuseAtLimit(warning: 3))
    #expect(atLimit(110.5) == .refuseAtLimit(warning: nil))
    #expect(filter.refusedAtLimit == 1)
    // Below the limit again: accepted.
    #expect(
      filter.decide(Self.request(), openConnections: 1, shuttingDown: false, now: 111) == .accept)
  }

  @Test func aForeignPageIsForbiddenItsOwnPageAndAllowedOnesAreNot() {
    var filter = Self.filter(allowed: ["https://friend.example"])
    func decide(_ origin: String) -> UpgradeFilter.Decision {
      filter.decide(
        Self.request(origin: origin), openConnections: 0, shuttingDown: false, now: 0)
    }
    #expect(decide("http://evil.example") == .forbid(origin: "http://evil.example"))
    #expect(decide("null") == .forbid(origin: "null"))
    #expect(decide("http://game.example") == .accept)
    #expect(decide("https://friend.example") == .accept)
  }

  @Test func aBadVersionIsRefusedBeforeTheOriginIsLookedAt() {
    var filter = Self.filter()
    #expect(
      filter.decide(
        Self.request(version: "8", origin: "http://evil.example"), openConnections: 0,
        shuttingDown: false, now: 0) == .refuse)
  }

  @Test func theForbiddenAnswerIsAWholeHTTP11ResponseWithTheSecurityHeaders() {
    let text = String(decoding: UpgradeFilter.forbiddenResponse, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
    #expect(text.contains("\r\ncontent-length: 0\r\n"))
    #expect(text.contains("\r\nconnection: close\r\n"))
    #expect(text.contains("\r\nContent-Security-Policy: default-src 'self'"))
    #expect(text.contains("\r\nX-Content-Type-Options: nosniff\r\n"))
    #expect(text.hasSuffix("\r\n\r\n"))
    #expect(text.components(separatedBy: "\r\n\r\n").count == 2)
  }
}
