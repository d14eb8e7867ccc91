import Foundation
import Testing

@testable import Protocol

/// `JSONValue.parse` reads what `JSONDecoder` reads, into the same values, and refuses what it
/// refuses, without throwing.
@Suite struct JSONParserTests {
  /// The decoder's reading, the way `parse` read JSON before it had a reader of its own.
  static func decoded(_ text: String) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  static let texts: [String] = [
    "null", "true", "false", "0", "-0", "7", "-42", "3.5", "-0.25", "1e3", "1E-2", "2.5e+10",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "123456789012345678901",
    #""""#, #""plain""#, #""a \"quoted\" word""#, #""back\\slash \/ and \b\f\n\r\t""#,
    #""\u00e9\u4E2D\ud83d\ude00""#, "\"caf\u{e9} \u{1F600}\"", "[]", "{}", "[1, 2.5, \"x\", null]",
    #"{"b": 1, "a": [true, {"d": null, "c": "x"}]}"#, #"{"k": 1, "k": 2}"#,
    " \n\t{ \"spaced\" : [ 1 , 2 ] } \r\n",
    #"{"type":"diff","table":"t1","version":12,"events":[{"kind":"select","seat":0,"cards":[3,7]}],"status":[{"text":"Ada","style":"name"}]}"#,
    // Not JSON: each is refused by both.
    "", " ", "nul", "tru", "True", "01", "-", "+1", "1.", ".5", "1e", "1e+", "0x10", "NaN",
    "[1 2]", "{\"a\" 1}", "{a:1}", "{\"a\":}", "[", "{", "\"open",
    "\"bad \\x escape\"", "\"\\u12\"", "\"\\ud83d\"", "\"tab\tinside\"", "1 2", "[] []", "}",
    "\"\\u00\"",
  ]

  @Test(arguments: texts)
  func readsWhatTheDecoderReads(_ text: String) {
    let parsed = JSONValue.parse(Array(text.utf8))
    let decoded = Self.decoded(text)
    #expect(
      parsed == decoded,
      "\(text): \(String(describing: parsed)) against \(String(describing: decoded))")
    if let parsed, let decoded {
      // The same bytes written back: members in the same order, numbers of the same kind.
      #expect(parsed.encoded == decoded.encoded, "\(text)")
    }
  }

  /// The decoder lets a trailing comma pass; RFC 8259 does not, nor does this reader.
  @Test(arguments: ["[1,]", #"{"a":1,}"#, "[[],]"])
  func aTrailingCommaIsRefused(_ text: String) {
    #expect(JSONValue.parse(Array(text.utf8)) == nil)
  }

  @Test func anObjectsMembersComeSortedAndARepeatedKeyKeepsItsFirstValue() throws {
    let value = try #require(JSONValue.parse(Array(#"{"b":1,"a":2,"b":3}"#.utf8)))
    guard case .object(let members) = value else {
      Issue.record("not an object: \(value)")
      return
    }
    #expect(members.map(\.0) == ["a", "b"])
    #expect(value["b"] == .int(1))
  }

  @Test func nestingDeeperThanTheLimitIsRefusedAndNoDeeperIsRead() {
    let deep = JSONParser.maximumDepth
    #expect(
      JSONValue.parse(
        Array((String(repeating: "[", count: deep) + String(repeating: "]", count: deep)).utf8))
        != nil)
    #expect(
      JSONValue.parse(
        Array(
          (String(repeating: "[", count: deep + 1) + String(repeating: "]", count: deep + 1)).utf8))
        == nil)
  }

  @Test func integersAreIntsAndOthersDoubles() {
    #expect(
      JSONValue.parse(Array("12".utf8)).map { if case .int(12) = $0 { true } else { false } }
        == true)
    #expect(
      JSONValue.parse(Array("12.0".utf8)).map { if case .double(12) = $0 { true } else { false } }
        == true)
    #expect(
      JSONValue.parse(Array("1e2".utf8)).map { if case .double(100) = $0 { true } else { false } }
        == true)
  }
}
