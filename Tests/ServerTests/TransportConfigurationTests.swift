import Testing

@testable import Server

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct TransportConfigurationTests {
  @Test func theDefaultsAreTheProtocolLimits() {
    let configuration = TransportConfiguration()
    #expect(configuration.validationProblem() == nil)
    #expect(configuration.subprotocol == "matchismo.v2")
    #expect(configuration.maxMessageBytes == 8192)
    #expect(configuration.outboundQueueFrameLimit == 512)
    #expect(configuration.outboundQueueByteLimit == 4 << 20)
    #expect(configuration.rateBurst == 40)
    #expect(configuration.rateRefillPerSecond == 20)
    #expect(configuration.pingIdleSeconds == 30)
    #expect(configuration.hangupIdleSeconds == 60)
    #expect(!configuration.usesTLS)
  }

  @Test func tlsNeedsBothPaths() {
    var configuration = TransportConfiguration()
    configuration.tlsCertificatePath = "/cert.pem"
    #expect(configuration.validationProblem() != nil)
    configuration.tlsPrivateKeyPath = "/key.pem"
    #expect(configuration.validationProblem() == nil)
    #expect(configuration.usesTLS)
  }

  @Test func hangupMustComeAfterPing() {
    var configuration = TransportConfiguration()
    configuration.hangupIdleSeconds = configuration.pingIdleSeconds
    #expect(configuration.validationProblem() != nil)
    configuration.pingIdleSeconds = 0  // keepalive off
    #expect(configuration.validationProblem() == nil)
  }

  @Test(arguments: ["", "has space", "http", String(repeating: "a", count: 64)])
  func badSubprotocolsAreReported(subprotocol: String) {
    var configuration = TransportConfiguration()
    configuration.subprotocol = subprotocol
    #expect(configuration.validationProblem() != nil)
  }

  @Test func badLimitsAreReported() {
    var configuration = TransportConfiguration()
    configuration.port = 70_000
    #expect(configuration.validationProblem() != nil)
    configuration = TransportConfiguration()
    configuration.maxMessageBytes = 0
    #expect(configuration.validationProblem() != nil)
    configuration = TransportConfiguration()
    configuration.rateBurst = 0.5
    #expect(configuration.validationProblem() != nil)
    configuration = TransportConfiguration()
    configuration.outboundQueueFrameLimit = 0
    #expect(configuration.validationProblem() != nil)
  }

  @Test func theFileLimitFitsTheConnectionsWithinTheHardLimit() {
    let headroom = FileDescriptorLimit.headroom
    #expect(FileDescriptorLimit.soft(forConnections: 100, hard: 4096) == rlim_t(100 + headroom))
    #expect(FileDescriptorLimit.soft(forConnections: 50_000, hard: 20_000) == 20_000)
    // Never above lws' 10,000,000, beyond which it would fall back to 2,560 descriptors.
    #expect(FileDescriptorLimit.soft(forConnections: Int.max, hard: .max) == 10_000_000)
  }

}
