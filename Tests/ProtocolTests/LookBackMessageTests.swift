import Protocol
import Testing

@testable import Model

/// The look back is written straight into its text (``ServerMessage/lookBack(_:seats:daily:)``):
/// it must be the bytes a `JSONValue` tree of the same members, in the same order, writes.
struct LookBackMessageTests {
  static func tenths(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }

  /// The look back as a tree, member by member as PROTOCOL.md lists them.
  static func tree(_ lookBack: GameLookBack, seats: Int, daily: JSONValue?) -> JSONValue {
    func timeOrNull(_ seconds: Double?) -> JSONValue {
      seconds.map { .double(tenths($0)) } ?? .null
    }
    var members: [(String, JSONValue)] = [
      ("boardSeen", .bool(lookBack.boardSeen)),
      (
        "found",
        .array(
          lookBack.found.map {
            .object([
              ("seat", .int($0.seat)), ("cards", .array($0.cards.map { .int($0) })),
              ("at", .double(tenths($0.at))), ("seconds", .double(tenths($0.seconds))),
            ])
          })
      ),
      (
        "missed",
        .array(
          lookBack.missed.map {
            .object([
              ("cards", .array($0.cards.map { .int($0) })), ("from", .double(tenths($0.from))),
              ("until", .double(tenths($0.until))), ("seconds", .double(tenths($0.seconds))),
            ])
          })
      ),
      (
        "players",
        .array(
          lookBack.reactions(seats: seats).map {
            .object([
              ("seat", .int($0.seat)), ("found", .int($0.seconds.count)),
              ("fastest", timeOrNull($0.fastest)), ("mean", timeOrNull($0.mean)),
            ])
          })
      ),
    ]
    if let daily { members.append(("daily", daily)) }
    return .object(members)
  }

  static let played: GameLookBack = {
    var lookBack = GameLookBack(boardSeen: true)
    lookBack.found = [
      .init(seat: 0, cards: [3, 17, 40], at: 4.26, seconds: 4.26),
      .init(seat: 2, cards: [1, 2, 80], at: 12.05, seconds: 0.04),
      .init(seat: 0, cards: [9, 10, 11], at: 71.999, seconds: 13.333),
    ]
    lookBack.missed = [
      .init(cards: [5, 6, 7], from: 0, until: 12.05),
      .init(cards: [20, 30, 79], from: 33.3, until: 100.25),
    ]
    return lookBack
  }()

  @Test(arguments: [1, 3, 4])
  func theTextIsTheTreesText(seats: Int) throws {
    for daily: JSONValue? in [nil, .object([("day", "2026-12-03"), ("rank", .int(2))])] {
      let written = ServerMessage.lookBack(Self.played, seats: seats, daily: daily)
      let tree = Self.tree(Self.played, seats: seats, daily: daily)
      #expect(
        String(decoding: written.bytes, as: UTF8.self)
          == String(decoding: tree.encoded, as: UTF8.self))
      #expect(written.value == JSONValue.parse(tree.encoded))
    }
  }

  @Test func aFaceDownGameWithNoMatch() {
    let empty = GameLookBack(boardSeen: false)
    let written = ServerMessage.lookBack(empty, seats: 2)
    #expect(
      String(decoding: written.bytes, as: UTF8.self)
        == #"{"boardSeen":false,"found":[],"missed":[],"players":["#
        + #"{"seat":0,"found":0,"fastest":null,"mean":null},"#
        + #"{"seat":1,"found":0,"fastest":null,"mean":null}]}"#)
    #expect(written.bytes == Self.tree(empty, seats: 2, daily: nil).encoded)
  }

  @Test func aLookBackEventCarriesTheTextAsItIs() {
    let written = ServerMessage.lookBack(Self.played, seats: 2)
    var out = JSONWriter()
    TableEvent.lookBack(written).write(to: &out)
    #expect(out.bytes == Array(#"{"kind":"lookBack","lookBack":"#.utf8) + written.bytes + [125])
  }
}
