import Foundation
import Protocol
import TestSupport
import Testing

/// A client frame that must decode, and what it must decode to.
struct ValidFrame: Sendable, CustomTestStringConvertible {
  let file: String
  let expected: ClientEnvelope

  init(_ file: String, id: MessageID?, _ message: ClientMessage) {
    self.file = file
    self.expected = ClientEnvelope(id: id, message: message)
  }

  var testDescription: String { file }
}

/// A client frame that must be refused, with the code and `replyTo` of the refusal.
struct BadFrame: Sendable, CustomTestStringConvertible {
  let file: String
  let code: ErrorCode
  let replyTo: MessageID?
  /// For `badField`: the field the message must name.
  let field: String?

  init(_ file: String, _ code: ErrorCode, replyTo: MessageID? = nil, field: String? = nil) {
    self.file = file
    self.code = code
    self.replyTo = replyTo
    self.field = field
  }

  var testDescription: String { file }
}

@Suite struct ClientMessageDecoderTests {
  static let validFrames: [ValidFrame] = [
    ValidFrame("hello.json", id: .int(1), .hello(name: "Ada", resume: nil)),
    ValidFrame(
      "hello-resume.json", id: .int(1), .hello(name: "Ada", resume: "q3J1bHqk1n7wWm7v0k3t8A")),
    ValidFrame("hello-bare.json", id: nil, .hello(name: nil, resume: nil)),
    ValidFrame(
      "playBot.json", id: .int(2), .playBot(game: "set", level: "casual", bots: 1)),
    ValidFrame("hello-games.json", id: .int(1), .hello(name: "Ada", resume: nil, games: .all)),
    ValidFrame(
      "hello-resume-games.json", id: .int(1),
      .hello(
        name: "Ada", resume: "q3J1bHqk1n7wWm7v0k3t8A", games: .unlessVersion("c41aab025ffde563"))),
    ValidFrame(
      "hello-trimmed-name.json", id: .string("first"), .hello(name: "Ada Lovelace", resume: nil)),
    ValidFrame("hello-empty-name.json", id: .int(1), .hello(name: nil, resume: nil)),
    ValidFrame("hello-blank-name.json", id: .int(1), .hello(name: nil, resume: nil)),
    ValidFrame("hello-null-fields.json", id: .int(1), .hello(name: nil, resume: nil)),
    ValidFrame(
      "hello-name-24.json", id: .int(1), .hello(name: "Twenty-four characters!!", resume: nil)),
    // A token of any shape that names no session is no token: the hello is still accepted.
    ValidFrame("hello-resume-number.json", id: .int(1), .hello(name: "Ada", resume: nil)),
    ValidFrame("hello-unknown-fields.json", id: .int(1), .hello(name: "Zoë 🃏", resume: nil)),
    ValidFrame("playSolo.json", id: .int(2), .playSolo(game: "set")),
    ValidFrame("playSolo-chess.json", id: .string("p"), .playSolo(game: "chess")),
    ValidFrame(
      "playSolo-settings.json", id: .int(2),
      .playSolo(game: "matchismo", options: TableOptions(matchSize: 3))),
    ValidFrame("choose.json", id: .int(3), .choose(card: 17)),
    ValidFrame("choose-card-0.json", id: .string("c-0"), .choose(card: 0)),
    ValidFrame("choose-card-1.json", id: .string("c-1"), .choose(card: 1)),
    ValidFrame("choose-card-81.json", id: nil, .choose(card: 81)),
    ValidFrame("choose-card-negative.json", id: .int(-7), .choose(card: -1)),
    ValidFrame("choose-whitespace.json", id: .int(9), .choose(card: 40)),
    ValidFrame("redeal.json", id: .int(4), .redeal),
    ValidFrame("addComputer.json", id: .int(6), .addComputer(level: "casual")),
    ValidFrame("arenas.json", id: .int(1), .arenas),
    ValidFrame(
      "createArena.json", id: .int(2), .createArena(game: "set", minutes: 10, startsIn: 30)),
    ValidFrame("joinArena.json", id: .int(3), .joinArena(.id("s1795003200"))),
    ValidFrame("joinArena-code.json", id: .int(4), .joinArena(.code("K7Q2M9XW4P"))),
    ValidFrame("leaveArena.json", id: .int(5), .leaveArena(arena: "s1795003200")),
    ValidFrame("watchArena.json", id: .int(6), .watchArena(arena: "s1795003200")),
    ValidFrame("watchFeatured.json", id: .int(7), .watchFeatured(arena: "s1795003200")),
    ValidFrame("hint.json", id: .int(6), .hint),
    ValidFrame("countMatches.json", id: .int(8), .countMatches),
    ValidFrame("resync.json", id: .int(5), .resync),
    ValidFrame("resync-id-first.json", id: .int(5), .resync),
    ValidFrame("resync-null-id.json", id: nil, .resync),
    ValidFrame("resync-id-64.json", id: .string(String(repeating: "x", count: 64)), .resync),
  ]

  static let badFrames: [BadFrame] = [
    BadFrame("truncated.txt", .badJSON),
    BadFrame("plain-text.txt", .badJSON),
    BadFrame("empty.txt", .badJSON),
    BadFrame("single-quotes.txt", .badJSON),
    BadFrame("array.json", .badJSON),
    BadFrame("number.json", .badJSON),
    BadFrame("string.json", .badJSON),
    BadFrame("null.json", .badJSON),
    BadFrame("missing-type.json", .unknownType, replyTo: .int(7)),
    BadFrame("type-not-string.json", .unknownType, replyTo: .string("x")),
    BadFrame("unknown-type.json", .unknownType, replyTo: .int(8)),
    BadFrame("type-wrong-case.json", .unknownType, replyTo: .int(8)),
    BadFrame("card-string.json", .badField, replyTo: .int(3), field: "card"),
    BadFrame("card-float.json", .badField, replyTo: .int(3), field: "card"),
    BadFrame("card-bool.json", .badField, replyTo: .int(3), field: "card"),
    BadFrame("card-null.json", .badField, replyTo: .int(3), field: "card"),
    BadFrame("card-missing.json", .badField, replyTo: .string("three"), field: "card"),
    BadFrame("name-number.json", .badField, replyTo: .int(1), field: "name"),
    BadFrame("name-25.json", .badField, replyTo: .int(1), field: "name"),
    BadFrame("name-300.json", .badField, replyTo: .int(1), field: "name"),
    BadFrame("game-missing.json", .badField, replyTo: .int(2), field: "game"),
    BadFrame("createArena-minutes-0.json", .badField, replyTo: .int(8), field: "minutes"),
    BadFrame("joinArena-missing.json", .badField, replyTo: .int(9), field: "arena"),
    BadFrame("game-number.json", .badField, replyTo: .int(2), field: "game"),
    // An id that cannot be read cannot be echoed.
    BadFrame("id-object.json", .badField, field: "id"),
    BadFrame("id-array.json", .badField, field: "id"),
    BadFrame("id-float.json", .badField, field: "id"),
    BadFrame("id-bool.json", .badField, field: "id"),
    BadFrame("id-65.json", .badField, field: "id"),
    BadFrame("id-65-and-bad-card.json", .badField, field: "id"),
  ]

  @Test("client fixture decodes", arguments: validFrames)
  func decodes(_ frame: ValidFrame) throws {
    let result = ClientMessageDecoder.decode(try Fixture.bytes("client/\(frame.file)"))
    #expect(result == .success(frame.expected))
  }

  @Test("bad client fixture is refused precisely", arguments: badFrames)
  func refuses(_ frame: BadFrame) throws {
    let result = ClientMessageDecoder.decode(try Fixture.bytes("bad/\(frame.file)"))
    guard case .failure(let error) = result else {
      Issue.record("\(frame.file) decoded to \(result)")
      return
    }
    #expect(error.code == frame.code)
    #expect(error.replyTo == frame.replyTo)
    #expect(!error.message.isEmpty)
    if let field = frame.field {
      #expect(error.message.contains("'\(field)'"), "\(error.message)")
    }
  }

  @Test func everyFixtureHasAnExpectation() throws {
    #expect(try Fixture.files(in: "client") == Self.validFrames.map(\.file).sorted())
    #expect(try Fixture.files(in: "bad") == Self.badFrames.map(\.file).sorted())
  }

  /// Every client example in PROTOCOL.md is one of the fixtures, byte for byte, so the fixtures
  /// cannot drift from the document.
  @Test func protocolDocumentExamplesAreFixtures() throws {
    let document = try String(contentsOf: protocolDocumentURL, encoding: .utf8)
    let clientSection = try #require(
      document.components(separatedBy: "## Client → server").dropFirst().first?
        .components(separatedBy: "## Server → client").first)
    let examples = clientSection.split(separator: "\n").filter { $0.hasPrefix("{\"type\":") }
    #expect(examples.count == 10)
    var fixtures = Set<String>()
    for file in try Fixture.files(in: "client") {
      fixtures.insert(try Fixture.text("client/\(file)").trimmingCharacters(in: .newlines))
    }
    for example in examples {
      #expect(fixtures.contains(String(example)), "no fixture for \(example)")
      #expect(throws: Never.self) { try ClientMessageDecoder.decode(Array(example.utf8)).get() }
    }
  }

  @Test func nameOf24TwoByteLettersFitsBothLimits() {
    let name = String(repeating: "é", count: 24)
    let frame = Array(#"{"type":"hello","name":"\#(name)"}"#.utf8)
    #expect(frame.count > 24 * 2)
    #expect(
      ClientMessageDecoder.decode(frame)
        == .success(.init(id: nil, message: .hello(name: name, resume: nil))))
  }

  @Test func decodedIdsAreEchoedAsWritten() throws {
    let ids: [(String, MessageID)] = [
      ("7", .int(7)), ("-3", .int(-3)), ("0", .int(0)), (#""abc""#, .string("abc")),
      (#""""#, .string("")), (#""42""#, .string("42")),
    ]
    for (literal, expected) in ids {
      let frame = Array(#"{"type":"resync","id":\#(literal)}"#.utf8)
      #expect(try ClientMessageDecoder.decode(frame).get().id == expected)
    }
  }
}

/// `docs/PROTOCOL.md` in the source tree.
let protocolDocumentURL = URL(filePath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appending(path: "docs/PROTOCOL.md")
