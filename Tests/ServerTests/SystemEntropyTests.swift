import Lobby
import Store
import Testing

@testable import Server

/// The server's entropy keeps session tokens only as their digests.
@Suite struct SystemEntropyTests {
  @Test func theSystemEntropyKeepsTokensAsDigests() {
    let token = LobbyEntropy.system.token()
    #expect(LobbyEntropy.system.hash(token) == TokenDigest.hex(token))
    #expect(LobbyEntropy.system.hash(token) != token)
  }
}
