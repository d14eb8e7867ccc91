import Testing

@testable import Server

/// Whose connection it is behind the front door: the address a trusted proxy forwarded, and
/// only from a trusted proxy.
@Suite struct ClientAddressTests {
  @Test func aTrustedProxyNamesTheClientWithWhatItAddedLast() {
    let trusted: Set<String> = ["127.0.0.1", "10.0.0.1"]
    #expect(
      ClientAddress.of(peer: "10.0.0.1", forwardedFor: "203.0.113.9", trusted: trusted)
        == "203.0.113.9")
    // What the client wrote comes first; the proxy's own addition is the last.
    #expect(
      ClientAddress.of(peer: "10.0.0.1", forwardedFor: "1.2.3.4, 203.0.113.9", trusted: trusted)
        == "203.0.113.9")
    #expect(
      ClientAddress.of(peer: "127.0.0.1", forwardedFor: "2001:db8::7", trusted: trusted)
        == "2001:db8::7")
  }

  @Test func anyoneElseIsWhereTheConnectionComesFrom() {
    let trusted: Set<String> = ["10.0.0.1"]
    // A client cannot name itself someone else.
    #expect(
      ClientAddress.of(peer: "198.51.100.4", forwardedFor: "203.0.113.9", trusted: trusted)
        == "198.51.100.4")
    // A proxy that forwarded nothing, or something that is no address.
    #expect(ClientAddress.of(peer: "10.0.0.1", forwardedFor: nil, trusted: trusted) == "10.0.0.1")
    #expect(
      ClientAddress.of(peer: "10.0.0.1", forwardedFor: "unknown", trusted: trusted) == "10.0.0.1")
    #expect(
      ClientAddress.of(peer: "10.0.0.1", forwardedFor: "203.0.113.9, ", trusted: trusted)
        == "10.0.0.1")
  }

  @Test func aTrustedProxyMustBeAnAddress() {
    var configuration = ServerConfiguration()
    configuration.trustedProxies = ["front-door.example"]
    #expect(
      configuration.validationProblem()
        == "--trusted-proxy: 'front-door.example' is not an IP address.")
    configuration.trustedProxies = ["10.0.0.1", "::1"]
    #expect(configuration.validationProblem() == nil)
  }
}
