import Testing

@testable import Lobby

@Suite struct SessionTokenTests {
  static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

  @Test func tokensAre22Base64URLCharacters() {
    for _ in 0..<100 {
      let token = SessionToken.make()
      #expect(token.count == 22)
      #expect(token.allSatisfy(Self.alphabet.contains), "\(token)")
    }
  }

  @Test func aThousandTokensAreDistinct() {
    let tokens = (0..<1000).map { _ in SessionToken.make() }
    #expect(Set(tokens).count == 1000)
  }

  /// 16 bytes make 22 digits whose last holds only 2 bits: it is one of A, Q, g or w.
  @Test func lastDigitCarriesTwoBits() {
    for _ in 0..<50 {
      #expect("AQgw".contains(SessionToken.make().last!))
    }
  }

  /// RFC 4648 §10, without padding.
  @Test(arguments: [
    ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
    ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
  ])
  func rfc4648Vectors(_ input: String, _ expected: String) {
    #expect(SessionToken.base64URL(Array(input.utf8)) == expected)
  }

  /// Where base64 writes '+' and '/', base64url writes '-' and '_'.
  @Test(arguments: [
    ([0xFB, 0xEF, 0xBE] as [UInt8], "----"),  // base64 "++++"
    ([0xFF, 0xFF, 0xFF], "____"),  // base64 "////"
    ([0xFB, 0xFF], "-_8"),  // base64 "+/8="
    ([0xFF], "_w"),  // base64 "/w=="
    ([0x00, 0x00, 0x00], "AAAA"),
    ([0x14, 0xFB, 0x9C, 0x03, 0xD9, 0x7E], "FPucA9l-"),  // RFC 4648 §9: "FPucA9l+"
    ([0x14, 0xFB, 0x9C, 0x03, 0xD9], "FPucA9k"),  // "FPucA9k="
    ([0x14, 0xFB, 0x9C, 0x03], "FPucAw"),  // "FPucAw=="
  ])
  func urlSafeAlphabet(_ bytes: [UInt8], _ expected: String) {
    #expect(SessionToken.base64URL(bytes) == expected)
  }

  @Test func everyDigitValueMapsToItsCharacter() {
    // 0x00 0x10 0x83 0x10 0x51 0x87 … packs the digit values 0, 1, 2, … 63 in order.
    var bits: [Bool] = []
    for value in 0..<64 {
      for shift in (0..<6).reversed() { bits.append(value >> shift & 1 == 1) }
    }
    var bytes: [UInt8] = []
    for start in stride(from: 0, to: bits.count, by: 8) {
      bytes.append(bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
    }
    #expect(bytes.count == 48)
    #expect(
      SessionToken.base64URL(bytes)
        == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
  }
}
