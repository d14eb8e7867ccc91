import Store
import Testing

/// A token's digest is SHA-256 as lowercase hex: the test vectors of FIPS 180-4 (one block, an
/// empty message, two blocks, a million bytes).
@Suite struct TokenDigestTests {
  @Test(arguments: [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func knownDigests(_ message: String, _ digest: String) {
    #expect(TokenDigest.hex(message) == digest)
  }

  @Test func aMillionAs() {
    #expect(
      TokenDigest.hex(String(repeating: "a", count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
