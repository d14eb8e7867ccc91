import Protocol
import TestSupport
import Testing

@Suite struct JSONValueTests {
  static let awkwardStrings: [String] = [
    "",
    #"say "hi""#,
    #"back\slash and \"both\""#,
    "\u{0}\u{1}\u{7}\u{8}\u{B}\u{C}\u{1B}\u{1F}",
    "tab\tnew\nline\rreturn",
    "emoji 🃏 family 👩‍👩‍👧 flag 🇫🇷",
    "combining e\u{301} and é",
    "</script><script>alert('x')</script>",
    "<!-- & &amp; '\u{2028}\u{2029}'",
    "\u{7F} DEL and \u{FEFF} BOM",
    "/slashes/ and \\/ escaped slash",
  ]

  @Test(arguments: awkwardStrings)
  func stringsRoundTrip(_ string: String) throws {
    let encoded = JSONValue.string(string).encoded
    // No raw control character may reach the wire.
    #expect(!encoded.contains { $0 < 0x20 })
    let parsed = try #require(JSONValue.parse(encoded))
    guard case .string(let back) = parsed else {
      Issue.record("parsed to \(parsed)")
      return
    }
    #expect(back == string)
    #expect(Array(back.unicodeScalars) == Array(string.unicodeScalars))
  }

  @Test(arguments: awkwardStrings)
  func stringsRoundTripAsKeysAndInsideContainers(_ string: String) throws {
    let value = JSONValue.object([(string, .array([.string(string), .int(1)])), ("k", .null)])
    #expect(JSONValue.parse(value.encoded) == value)
  }

  @Test func controlCharactersAreEscaped() {
    #expect(JSONValue.string("a\"b\\c\n\r\t\u{1}\u{1F}").text == #""a\"b\\c\n\r\t\u0001\u001f""#)
  }

  @Test(arguments: [
    (0.35, "0.35"), (0.1, "0.1"), (-2.25, "-2.25"), (1.5, "1.5"), (1e-7, "1e-07"),
  ])
  func doublesEncodeShortest(_ value: Double, _ text: String) throws {
    #expect(JSONValue.double(value).text == text)
    let parsed = try #require(JSONValue.parse(JSONValue.double(value).encoded))
    guard case .double(let back) = parsed else {
      Issue.record("\(value) parsed to \(parsed)")
      return
    }
    #expect(back == value)
  }

  @Test func wholeDoublesEncodeWithoutAFraction() {
    #expect(JSONValue.double(1).text == "1")
    #expect(JSONValue.double(0).text == "0")
    #expect(JSONValue.double(-3).text == "-3")
    #expect(JSONValue.double(.nan).text == "null")
    #expect(JSONValue.double(.infinity).text == "null")
  }

  @Test(arguments: [0, 1, -1, 17, 8192, Int(Int32.max) + 1, Int.max, Int.min])
  func intsStayInts(_ value: Int) throws {
    #expect(JSONValue.int(value).text == String(value))
    let parsed = try #require(JSONValue.parse(JSONValue.int(value).encoded))
    guard case .int(let back) = parsed else {
      Issue.record("\(value) parsed to \(parsed)")
      return
    }
    #expect(back == value)
  }

  @Test func objectsKeepTheirMemberOrderWhenEncoded() {
    let value = JSONValue.object([("z", .int(1)), ("a", .bool(true)), ("m", .null)])
    #expect(value.text == #"{"z":1,"a":true,"m":null}"#)
    #expect(JSONValue.array([]).text == "[]")
    #expect(JSONValue.object([]).text == "{}")
  }

  @Test func objectEqualityIgnoresMemberOrder() {
    let a = JSONValue.object([("x", .int(1)), ("y", .array([.string("s")]))])
    let b = JSONValue.object([("y", .array([.string("s")])), ("x", .int(1))])
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != .object([("x", .int(1))]))
    #expect(a != .object([("x", .int(2)), ("y", .array([.string("s")]))]))
    #expect(a != .object([("x", .int(1)), ("z", .array([.string("s")]))]))
    // Arrays are ordered.
    #expect(JSONValue.array([.int(1), .int(2)]) != .array([.int(2), .int(1)]))
  }

  /// Members in the same order are compared pairwise, and in any other order member by member,
  /// with the same answers: the same repeated key in another order, a nested object reordered.
  @Test func equalityIsTheSameWhateverPathDecidesIt() {
    let swapped = JSONValue.object([("k", .int(2)), ("k", .int(1))])
    #expect(JSONValue.object([("k", .int(1)), ("k", .int(2))]) == swapped)
    let inner = JSONValue.object([("p", .int(1)), ("q", .null)])
    let reordered = JSONValue.object([("q", .null), ("p", .int(1))])
    #expect(
      JSONValue.object([("o", inner), ("n", .int(0))])
        == .object([("o", reordered), ("n", .int(0))]))
    #expect(
      JSONValue.object([("o", inner)]) != .object([("o", .object([("p", .int(2)), ("q", .null)]))]))
  }

  @Test func equalityIsSymmetricForObjectsWithRepeatedKeys() {
    let repeated = JSONValue.object([("a", .int(1)), ("a", .int(1))])
    let distinct = JSONValue.object([("a", .int(1)), ("b", .int(2))])
    #expect((repeated == distinct) == (distinct == repeated))
    #expect(repeated != distinct)
  }

  @Test func numbersCompareByValue() {
    #expect(JSONValue.int(1) == .double(1))
    #expect(JSONValue.double(0.35) != .int(0))
    #expect(JSONValue.string("1") != .int(1))
    #expect(JSONValue.bool(true) != .int(1))
  }

  @Test func parseRejectsInvalidText() {
    for text in ["", "{", "{\"a\":}", "[01]", "nul", "{'a':1}", "{\"a\":1} trailing"] {
      #expect(JSONValue.parse(Array(text.utf8)) == nil, "\(text)")
    }
  }

  @Test func parseReadsEveryKind() throws {
    let text = #"{"n":null,"t":true,"f":false,"i":-12,"d":2.5,"s":"x","a":[1,[2]],"o":{"k":"v"}}"#
    let parsed = try #require(JSONValue.parse(Array(text.utf8)))
    let expected = JSONValue.object([
      ("n", .null), ("t", .bool(true)), ("f", .bool(false)), ("i", .int(-12)),
      ("d", .double(2.5)), ("s", .string("x")), ("a", .array([.int(1), .array([.int(2)])])),
      ("o", .object([("k", .string("v"))])),
    ])
    #expect(parsed == expected)
    #expect(parsed["t"] == .bool(true))
    #expect(parsed["i"]?.intValue == -12)
    #expect(parsed["missing"] == nil)
    #expect(JSONValue.array([])["k"] == nil)
  }

  @Test func aParsedObjectHasItsKeysSortedSoItWritesBackTheSameEveryTime() throws {
    let text =
      #"{"seats":1,"boardSize":12,"faceDown":false,"matchSize":3,"theme":0,"o":{"z":1,"a":2}}"#
    let sorted =
      #"{"boardSize":12,"faceDown":false,"matchSize":3,"o":{"a":2,"z":1},"seats":1,"theme":0}"#
    for _ in 0..<20 {
      let parsed = try #require(JSONValue.parse(Array(text.utf8)))
      #expect(parsed.encoded == Array(sorted.utf8))
    }
  }

  @Test(arguments: [0, 7, 9, 10, -1, -10, 42, 1_000_000, Int.max, Int.min])
  func integersEncodeAsTheirDecimalDigits(value: Int) {
    #expect(JSONValue.int(value).encoded == Array(String(value).utf8))
  }

  @Test func stringsNeedingNoEscapeAreCopiedWhole() {
    #expect(JSONValue.string("Ada ◆ ∿").encoded == Array(#""Ada ◆ ∿""#.utf8))
    #expect(JSONValue.string("a\"b\\c\n").encoded == Array(#""a\"b\\c\n""#.utf8))
  }
}
