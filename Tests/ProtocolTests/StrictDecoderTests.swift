import Testing

@testable import Protocol

/// Raw frame bytes with a readable label, for parameterized tests.
struct RawFrame: Sendable, CustomTestStringConvertible {
  let bytes: [UInt8]
  let label: String

  /// The UTF-8 bytes of `text`.
  init(_ text: String) {
    self.bytes = Array(text.utf8)
    self.label = text.count > 60 ? String(text.prefix(60)) + "…" : text
  }

  /// Exact bytes (for invalid UTF-8), labelled.
  init(bytes: [UInt8], _ label: String) {
    self.bytes = bytes
    self.label = label
  }

  var testDescription: String { label }
}

/// A frame around a string value written as raw bytes, e.g. invalid UTF-8 in a name.
private func nameFrame(_ raw: [UInt8], _ label: String) -> RawFrame {
  RawFrame(
    bytes: Array(#"{"type":"hello","name":""#.utf8) + raw + Array(#""}"#.utf8), label)
}

extension Result where Failure == ProtocolError {
  /// The refusal, or nil when the frame decoded.
  var refusal: ProtocolError? {
    guard case .failure(let error) = self else { return nil }
    return error
  }
}

private func decode(_ text: String) -> Result<ClientEnvelope, ProtocolError> {
  ClientMessageDecoder.decode(Array(text.utf8))
}

/// `depth` nested arrays, e.g. `[[]]` for 2.
private func nestedArrays(_ depth: Int) -> String {
  String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

/// `depth` nested objects, e.g. `{"a":{}}` for 2.
private func nestedObjects(_ depth: Int) -> String {
  String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
}

@Suite struct StrictDecoderTests {
  static let malformed: [RawFrame] = [
    // Not one object.
    RawFrame(""), RawFrame(" \n\t "), RawFrame("{"), RawFrame("}"), RawFrame("[]"),
    RawFrame(#"[{"type":"hello"}]"#), RawFrame("true"), RawFrame("null"), RawFrame("42"),
    RawFrame(#""hello""#), RawFrame("hello"),
    // Trailing bytes after the object.
    RawFrame(#"{"type":"resync"}x"#), RawFrame(#"{"type":"resync"}{}"#),
    RawFrame(#"{"type":"resync"},"#),
    RawFrame(bytes: Array(#"{"type":"resync"}"#.utf8) + [0], "NUL after"),
    RawFrame(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"type":"resync"}"#.utf8), "byte order mark"),
    // Commas, colons and brackets.
    RawFrame(#"{"type":"resync",}"#), RawFrame(#"{,"type":"resync"}"#),
    RawFrame(#"{"type":"resync",,"id":1}"#), RawFrame(#"{"type":"resync","x":[1,2,]}"#),
    RawFrame(#"{"type":"resync","x":[,1]}"#), RawFrame(#"{"type" "resync"}"#),
    RawFrame(#"{"type":"resync" "id":1}"#), RawFrame(#"{"type"::"resync"}"#),
    RawFrame(#"{"type":"resync""#), RawFrame(#"{"type":"resync","x":[}"#),
    RawFrame(#"{"type":"resync","x":{]}"#), RawFrame(#"{"type":"resync","x":{"a"}}"#),
    RawFrame(#"{"type":"resync","x":{1:2}}"#), RawFrame(#"{"type":"resync","x":}"#),
    RawFrame(#"{"type":"resync","x":[1 2]}"#),
    // Comments, single quotes, bare words.
    RawFrame(#"{"type":"resync"}// note"#), RawFrame(#"{"type":"resync"/* note */}"#),
    RawFrame(#"{"type":"resync"}#"#), RawFrame("{'type':'resync'}"),
    RawFrame(#"{"type":'resync'}"#), RawFrame(#"{type:"resync"}"#), RawFrame(#"{"type":resync}"#),
    RawFrame(#"{"type":"resync","x":undefined}"#),
    // Literals.
    RawFrame(#"{"type":"resync","x":tru}"#), RawFrame(#"{"type":"resync","x":True}"#),
    RawFrame(#"{"type":"resync","x":nul}"#), RawFrame(#"{"type":"resync","x":nulll}"#),
    RawFrame(#"{"type":"resync","x":falsey}"#),
    // Numbers.
    RawFrame(#"{"type":"choose","card":NaN}"#), RawFrame(#"{"type":"choose","card":Infinity}"#),
    RawFrame(#"{"type":"choose","card":-Infinity}"#), RawFrame(#"{"type":"choose","card":017}"#),
    RawFrame(#"{"type":"choose","card":-01}"#), RawFrame(#"{"type":"choose","card":00}"#),
    RawFrame(#"{"type":"choose","card":+1}"#), RawFrame(#"{"type":"choose","card":.5}"#),
    RawFrame(#"{"type":"choose","card":1.}"#), RawFrame(#"{"type":"choose","card":1.e3}"#),
    RawFrame(#"{"type":"choose","card":1e}"#), RawFrame(#"{"type":"choose","card":1e+}"#),
    RawFrame(#"{"type":"choose","card":-}"#), RawFrame(#"{"type":"choose","card":--1}"#),
    RawFrame(#"{"type":"choose","card":0x10}"#), RawFrame(#"{"type":"choose","card":1.5.3}"#),
    RawFrame(#"{"type":"choose","card":1e1000}"#),
    RawFrame(#"{"type":"choose","card":123456789012345678901}"#),
    RawFrame(#"{"type":"choose","card":1.\#(String(repeating: "5", count: 39))}"#),
    RawFrame(#"{"type":"resync","x":[1e1000]}"#),
    // Strings.
    RawFrame("{\"type\":\"hello\",\"name\":\"A\tda\"}"),
    RawFrame("{\"type\":\"hello\",\"name\":\"A\nda\"}"),
    RawFrame(
      bytes: Array(#"{"type":"hello","name":"A"#.utf8) + [0] + Array(#""}"#.utf8), "raw NUL"),
    RawFrame(#"{"type":"hello","name":"\x41"}"#), RawFrame(#"{"type":"hello","name":"\u12"}"#),
    RawFrame(#"{"type":"hello","name":"\u12G4"}"#), RawFrame(#"{"type":"hello","name":"\ud83c"}"#),
    RawFrame(#"{"type":"hello","name":"\udccf"}"#),
    RawFrame(#"{"type":"hello","name":"\ud83c\u0041"}"#),
    RawFrame(#"{"type":"hello","name":"\ud83c\ud83c"}"#),
    RawFrame(#"{"type":"hello","name":"Ada}"#),
    RawFrame(#"{"type":"hello","name":"Ada\"#), RawFrame(#"{"type":"hello","name":"Ada\"}"#),
    RawFrame(#"{"type":"resync","x":"\'"}"#), RawFrame(#"{"typ\e":"resync"}"#),
    // Invalid UTF-8, in a known field, in an unknown one and outside strings.
    nameFrame([0xFF], "0xFF"), nameFrame([0xC0, 0xAF], "overlong /"),
    nameFrame([0xE0, 0x80, 0xAF], "overlong 3 bytes"), nameFrame([0xED, 0xA0, 0x80], "surrogate"),
    nameFrame([0xF4, 0x90, 0x80, 0x80], "past U+10FFFF"), nameFrame([0xE2, 0x82], "truncated"),
    nameFrame([0x80], "lone continuation"), nameFrame([0xF0, 0x9F, 0x83], "truncated emoji"),
    RawFrame(
      bytes: Array(#"{"type":"resync","x":""#.utf8) + [0xC3] + Array(#""}"#.utf8), "unknown"),
    RawFrame(bytes: Array(#"{"type":"resync","#.utf8) + [0xC3, 0xA9] + Array("}".utf8), "outside"),
    // Depth: the top object and 32 more levels is one too many.
    RawFrame(#"{"type":"resync","x":\#(nestedArrays(32))}"#),
    RawFrame(#"{"type":"resync","x":\#(nestedObjects(32))}"#),
    RawFrame(#"{"type":"choose","card":\#(nestedArrays(32))}"#),
    RawFrame(#"{"type":"resync","x":\#(nestedArrays(100_000))}"#),
    // A known field twice, however it is spelled.
    RawFrame(#"{"type":"resync","type":"resync"}"#),
    RawFrame(#"{"type":"choose","card":1,"card":2}"#),
    RawFrame(#"{"id":1,"type":"resync","id":2}"#),
    RawFrame(#"{"type":"resync","typ\u0065":"redeal"}"#),
    RawFrame(#"{"type":"createTable","game":"set","seats":2,"private":true,"private":false}"#),
  ]

  @Test("malformed frame is badJSON", arguments: malformed)
  func malformedIsBadJSON(_ frame: RawFrame) {
    #expect(
      ClientMessageDecoder.decode(frame.bytes)
        == .failure(ProtocolError(.badJSON, "A message must be one JSON object.")))
  }

  static let odd: [(String, ClientEnvelope)] = [
    (
      #"{"type":"resync","s":"x","i":-12,"f":-0.5e-7,"E":1E+2,"t":true,"fa":false,"n":null}"#,
      ClientEnvelope(id: nil, message: .resync)
    ),
    (
      #"{"type":"resync","a":[],"o":{},"ao":[{},[],{"k":[null,"v",{"z":1}]}]}"#,
      ClientEnvelope(id: nil, message: .resync)
    ),
    (#"{"type":"resync","x":\#(nestedArrays(31))}"#, ClientEnvelope(id: nil, message: .resync)),
    (#"{"type":"resync","x":\#(nestedObjects(31))}"#, ClientEnvelope(id: nil, message: .resync)),
    // Repeated unknown fields are never read, so they are not refused.
    (#"{"type":"resync","x":1,"x":[2]}"#, ClientEnvelope(id: nil, message: .resync)),
    // Fields another message type reads are ignored, whatever they hold.
    (
      #"{"type":"resync","card":"x","name":5,"seats":[]}"#,
      ClientEnvelope(id: nil, message: .resync)
    ),
    (
      "\r\n\t {\"card\"\t:\r17 ,\n\"type\" : \"choose\" } \n",
      ClientEnvelope(id: nil, message: .choose(card: 17))
    ),
    (
      #"{"\u0074ype":"h\u0065llo","name":"\u0041da"}"#,
      ClientEnvelope(id: nil, message: .hello(name: "Ada", resume: nil))
    ),
    (
      #"{"type":"hello","name":"\ud83c\udccf \/ \"\\ \u00e9"}"#,
      ClientEnvelope(id: nil, message: .hello(name: "🃏 / \"\\ é", resume: nil))
    ),
    (
      #"{"type":"hello","id":"é🃏","name":"Zoë 🃏","x":"\u0000\u001f raw ü 𝄞"}"#,
      ClientEnvelope(id: .string("é🃏"), message: .hello(name: "Zoë 🃏", resume: nil))
    ),
    (
      #"{"type":"choose","id":-0,"card":-0}"#,
      ClientEnvelope(id: .int(0), message: .choose(card: 0))
    ),
    (
      #"{"type":"choose","id":9223372036854775807,"card":-9223372036854775808}"#,
      ClientEnvelope(id: .int(.max), message: .choose(card: .min))
    ),
    (
      #"{"type":"quickMatch","game":"set"}"#,
      ClientEnvelope(id: nil, message: .quickMatch(game: "set", seats: 4))
    ),
    (
      #"{"type":"quickMatch","game":"set","seats":2,"scoring":"course","boardSize":15}"#,
      ClientEnvelope(
        id: nil,
        message: .quickMatch(
          game: "set", seats: 2, options: TableOptions(boardSize: 15, scoring: "course")))
    ),
    (
      #"{"type":"createTable","game":"set","seats":8,"private":null}"#,
      ClientEnvelope(id: nil, message: .createTable(game: "set", seats: 8, isPrivate: false))
    ),
    (#"{"type":"join","code":"ab2c-z"}"#, ClientEnvelope(id: nil, message: .join(.code("AB2C-Z")))),
    (
      #"{"type":"spectate","code":null,"table":"t7"}"#,
      ClientEnvelope(id: nil, message: .spectate(.id("t7")))
    ),
    (
      #"{"type":"watching","count":1204,"key":"3f9a"}"#,
      ClientEnvelope(id: nil, message: .watching(count: 1204, key: "3f9a"))
    ),
    (
      #"{"type":"watcherChat","name":" Cy ","text":"go Ada","key":"3f9a"}"#,
      ClientEnvelope(id: nil, message: .watcherChat(name: "Cy", text: "go Ada", key: "3f9a"))
    ),
    (
      #"{"type":"hello","name":"\u00a0\u3000Ada\u2003"}"#,
      ClientEnvelope(id: nil, message: .hello(name: "Ada", resume: nil))
    ),
    (
      #"{"type":"hello","version":0,"resume":"token-1"}"#,
      ClientEnvelope(id: nil, message: .hello(name: nil, resume: "token-1", version: 0))
    ),
  ]

  @Test("valid but odd frame decodes", arguments: odd)
  func oddButValid(_ text: String, _ expected: ClientEnvelope) {
    #expect(decode(text) == .success(expected))
  }

  /// The fields' inline storage has room for every field.
  @Test func everyFieldHasASlot() {
    #expect(ClientField.allCases.count <= ClientFields.capacity)
  }

  @Test func anEmptyObjectHasNoType() {
    #expect(decode("{}") == .failure(ProtocolError(.unknownType, "Field 'type' is missing.")))
    #expect(decode(#"{"type":null,"id":2}"#).refusal?.code == .unknownType)
  }

  @Test func aNonIntegerNumberIsNoCard() {
    for card in ["1E2", "17.0", "9223372036854775808", "-9223372036854775809", "1e-3"] {
      let result = decode(#"{"type":"choose","id":1,"card":\#(card)}"#)
      #expect(result.refusal?.code == .badField, "\(card)")
    }
  }

  /// Every decoded envelope goes back to the same frame and the same envelope.
  @Test(arguments: odd.map(\.1))
  func envelopesRoundTrip(_ envelope: ClientEnvelope) {
    #expect(ClientMessageDecoder.decode(envelope.json.encoded) == .success(envelope))
  }
}

/// Limits are UTF-8 bytes and Unicode scalars, never grapheme clusters.
@Suite struct DecoderLimitTests {
  private func hello(name: String) -> Result<ClientEnvelope, ProtocolError> {
    ClientMessageDecoder.decode(
      JSONValue.object([("type", "hello"), ("id", .int(1)), ("name", .string(name))]).encoded)
  }

  private func expectRefused(
    _ result: Result<ClientEnvelope, ProtocolError>, field: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .failure(let error) = result else {
      Issue.record("accepted: \(result)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.code == .badField, sourceLocation: sourceLocation)
    #expect(
      error.message.contains("'\(field)'"), "\(error.message)", sourceLocation: sourceLocation)
  }

  @Test func helloAsksForTheGamesWithTrueOrTheVersionItHolds() throws {
    func games(_ value: JSONValue?) -> Result<ClientEnvelope, ProtocolError> {
      var fields: [(String, JSONValue)] = [("type", "hello"), ("id", .int(1))]
      if let value { fields.append(("games", value)) }
      return ClientMessageDecoder.decode(JSONValue.object(fields).encoded)
    }
    let accepted: [(JSONValue?, GamesWanted)] = [
      (nil, .none), (.null, .none), (.bool(false), .none), (.bool(true), .all),
      (.string("c41aab025ffde563"), .unlessVersion("c41aab025ffde563")),
      (
        .string(String(repeating: "v", count: 64)),
        .unlessVersion(String(repeating: "v", count: 64))
      ),
    ]
    for (value, wanted) in accepted {
      let envelope = try games(value).get()
      #expect(envelope.message == .hello(name: nil, resume: nil, games: wanted))
      #expect(ClientMessageDecoder.decode(envelope.json.encoded) == .success(envelope))
    }
    for refused: JSONValue in [.int(1), .string(String(repeating: "v", count: 65)), .array([])] {
      expectRefused(games(refused), field: "games")
    }
  }

  @Test func aLinksCountNeedsACountAndAKeyOfBoundedSize() {
    func watching(_ fields: [(String, JSONValue)]) -> Result<ClientEnvelope, ProtocolError> {
      ClientMessageDecoder.decode(JSONValue.object([("type", "watching")] + fields).encoded)
    }
    expectRefused(watching([("key", "k")]), field: "count")
    expectRefused(watching([("count", .int(-1)), ("key", "k")]), field: "count")
    expectRefused(watching([("count", .int(1_000_001)), ("key", "k")]), field: "count")
    expectRefused(watching([("count", .int(3))]), field: "key")
    expectRefused(
      watching([("count", .int(3)), ("key", .string(String(repeating: "k", count: 129)))]),
      field: "key")
    #expect(
      watching([("count", .int(0)), ("key", "k")])
        == .success(ClientEnvelope(id: nil, message: .watching(count: 0, key: "k"))))
  }

  static let acceptedNames: [String] = [
    String(repeating: "n", count: 24),
    String(repeating: "e\u{301}", count: 12),  // 24 scalars, 36 bytes, 12 characters
    String(repeating: "🃏", count: 16),  // 64 bytes
    "  " + String(repeating: "é", count: 24) + "\u{3000}",  // 48 bytes once trimmed
    "Zoë ‍👩‍👩‍👧",
  ]

  @Test(arguments: acceptedNames)
  func nameWithinLimits(_ name: String) throws {
    let decoded = try hello(name: name).get()
    guard case .hello(let got?, _, _, _, _) = decoded.message else {
      Issue.record("no name in \(decoded)")
      return
    }
    #expect(got.unicodeScalars.count <= 24)
    #expect(got.utf8.count <= 64)
  }

  static let refusedNames: [String] = [
    String(repeating: "n", count: 25),
    String(repeating: "e\u{301}", count: 13),  // only 13 characters, but 26 scalars
    String(repeating: "🃏", count: 17),  // 17 scalars, 68 bytes
    String(repeating: "日本", count: 11),  // 22 scalars, 66 bytes
    "a" + String(repeating: "\u{301}", count: 40),  // one grapheme cluster of 82 bytes
    String(repeating: "n", count: 300),
    "A\u{7}da", "A\u{7F}da", "A\u{85}da", "A\tda", "A\u{0}da",
    "A\u{61C}da", "A\u{200E}da", "A\u{200F}da", "A\u{202A}da", "A\u{202B}da", "A\u{202C}da",
    "A\u{202D}da", "A\u{202E}da", "A\u{2066}da", "A\u{2067}da", "A\u{2068}da", "A\u{2069}da",
  ]

  @Test(arguments: refusedNames)
  func nameBeyondLimitsOrWithRefusedCharacters(_ name: String) {
    expectRefused(hello(name: name), field: "name")
  }

  @Test func nameRefusalEchoesTheID() {
    #expect(hello(name: "A\u{202E}da").refusal?.replyTo == .int(1))
  }

  private func resync(id: String) -> Result<ClientEnvelope, ProtocolError> {
    ClientMessageDecoder.decode(
      JSONValue.object([("type", "resync"), ("id", .string(id))]).encoded)
  }

  @Test func stringIDsAreLimitedInBytes() {
    let twoByte = String(repeating: "é", count: 32)
    #expect(resync(id: twoByte) == .success(ClientEnvelope(id: .string(twoByte), message: .resync)))
    expectRefused(resync(id: twoByte + "x"), field: "id")
    expectRefused(resync(id: String(repeating: "x", count: 65)), field: "id")
    expectRefused(resync(id: String(repeating: "x", count: 5000)), field: "id")
    for refused in ["a\nb", "\u{0}", "a\u{202E}b", "\u{2066}", "\u{9F}"] {
      expectRefused(resync(id: refused), field: "id")
      let refusal = resync(id: refused).refusal
      #expect(refusal != nil && refusal?.replyTo == nil)
    }
  }

  @Test func otherStringsHaveByteLimits() throws {
    func frame(_ type: String, _ field: String, _ value: String) -> [UInt8] {
      JSONValue.object([
        ("type", .string(type)), ("id", .int(2)), (field, .string(value)), ("seats", .int(2)),
      ]).encoded
    }
    let limits: [(type: String, field: String, bytes: Int)] = [
      ("playSolo", "game", 32), ("quickMatch", "game", 32), ("createTable", "game", 32),
      ("join", "code", 16), ("spectate", "code", 16), ("join", "table", 32),
      ("spectate", "table", 32),
    ]
    for limit in limits {
      let fits = String(repeating: "é", count: limit.bytes / 2)
      #expect(throws: Never.self) {
        try ClientMessageDecoder.decode(frame(limit.type, limit.field, fits)).get()
      }
      let result = ClientMessageDecoder.decode(frame(limit.type, limit.field, fits + "x"))
      expectRefused(result, field: limit.field)
      #expect(result.refusal?.replyTo == .int(2))
      expectRefused(
        ClientMessageDecoder.decode(frame(limit.type, limit.field, "s\u{202E}t")),
        field: limit.field)
    }
  }

  @Test func codesAreUppercasedInASCIIOnly() throws {
    let decoded = try ClientMessageDecoder.decode(
      JSONValue.object([("type", "join"), ("code", "abcß2ŉ")]).encoded
    ).get()
    #expect(decoded.message == .join(.code("ABCß2ŉ")))
  }

  static let ignoredTokens: [String] = [
    "12345", "true", "false", "null", "[]", #"["q3J1bHqk1n7wWm7v0k3t8A"]"#, #"{"token":"x"}"#,
    #""""#, #""\#(String(repeating: "A", count: 129))""#,
    #""\#(String(repeating: "A", count: 6000))""#,
    #""a b""#, #""tok\u0000en""#, #""ümlaut""#, #""a\u202Eb""#, #""q3J1bHqk1n7wWm7v0k3t8A=""#,
    "1.5e3", "-1",
  ]

  /// A resume of any shape that cannot name a session starts a new one: never an error.
  @Test(arguments: ignoredTokens)
  func oddResumeIsNoToken(_ token: String) {
    let result = ClientMessageDecoder.decode(
      Array(#"{"type":"hello","id":1,"name":"Ada","resume":\#(token)}"#.utf8))
    #expect(
      result == .success(ClientEnvelope(id: .int(1), message: .hello(name: "Ada", resume: nil))))
  }

  @Test func longestTokenIsKept() {
    let token = String(repeating: "A", count: 127) + "_"
    let result = ClientMessageDecoder.decode(
      Array(#"{"type":"hello","resume":"\#(token)"}"#.utf8))
    #expect(result == .success(ClientEnvelope(id: nil, message: .hello(name: nil, resume: token))))
  }

  @Test func unknownTypesAreQuotedOnlyWhenShortAndPlain() {
    #expect(
      decode(#"{"type":"shout"}"#)
        == .failure(ProtocolError(.unknownType, "Unknown message type 'shout'.")))
    for type in [String(repeating: "x", count: 33), "a\u{202E}b", "a\\nb"] {
      #expect(
        decode(#"{"type":"\#(type)","id":3}"#)
          == .failure(ProtocolError(.unknownType, "Unknown message type.", replyTo: .int(3))))
    }
  }
}
