import Foundation
import Model
import Protocol
import Testing

@testable import Lobby

/// ``TableRecord/storedJSON()`` and ``GameSettings/writeStored(to:)`` write the object that
/// `JSONEncoder` writes (so that stores read old and new rows alike), with every optional part
/// present and absent and text that needs escaping; a field added to either type without its
/// key in the hand-written encoder fails here.
@Suite struct StoredRecordTests {
  /// The JSON text as Foundation reads it: objects compare by keys and values, numbers by value.
  func object(_ text: some Collection<UInt8>) throws -> NSDictionary {
    try #require(JSONSerialization.jsonObject(with: Data(text)) as? NSDictionary)
  }

  func record(variant: Int) -> TableRecord {
    let present = variant % 2 == 0
    var settings = GameSettings.set(seats: 3, scoring: variant % 3 == 0 ? .classic : .course)
    settings.theme = variant
    settings.faceDown = variant & 2 != 0
    return TableRecord(
      id: "t\(variant)", game: variant == 3 ? "set \"chain\"\n" : "set", settings: settings,
      code: "K7QX", isPrivate: present, showSelections: !present,
      turnSeconds: present ? 12.5 : nil, phase: "playing", host: present ? 2 : nil,
      seats: [
        SeatRecord(name: "Ada", token: "h1", player: present ? "p1" : nil),
        nil,
        SeatRecord(name: "Zoë\t\u{1}é😀", token: "h3", bot: present ? "expert" : nil),
      ],
      names: ["Ada", "Bo \\ </script>", ""], everSeated: present ? [0, 2] : [], votes: [2],
      version: 4_096, deal: 3, dealSeed: variant == 5 ? UInt64.max : 0x9E37_79B9_7F4A_7C15,
      creator: "h1", solo: variant == 4,
      chat: present
        ? [
          ChatLine(name: "Ada", seat: 0, text: "gg \"all\"", deal: 3, at: 9.25),
          ChatLine(name: "Eve", spectator: true, text: "\u{7f}", deal: 2, at: 1e16),
        ] : nil,
      daily: present ? "2026-12-03" : nil, playedBy: present ? ["0": "p1", "2": "p3"] : nil,
      offerComputer: present ? 20 : nil,
      sprint: present ? ArenaSprint(arena: "a9", name: "Friday \"blitz\"", sets: 7) : nil)
  }

  @Test func aTableRecordIsWhatJSONEncoderWrites() throws {
    for variant in 0..<6 {
      let original = record(variant: variant)
      let text = original.storedJSON()
      let read = try JSONDecoder().decode(TableRecord.self, from: Data(text.utf8))
      #expect(read == original, "\(text)")
      let encoded = try JSONEncoder().encode(original)
      #expect(try object(text.utf8) == object(encoded), "\(text)")
    }
  }

  /// Every key of the settings is written: as many as the type has fields.
  @Test func settingsAreWhatJSONEncoderWritesForEveryGame() throws {
    var keep = GameSettings.set(seats: 4)
    keep.matchedCards = .keep
    keep.turnBased = true
    keep.mismatchKeepsNewest = false
    for settings in [.set(), .setJunior(seats: 2), .ultraSet(scoring: .classic), keep] {
      var out = JSONWriter()
      settings.writeStored(to: &out)
      let written = try object(out.bytes)
      #expect(written == (try object(JSONEncoder().encode(settings))))
      #expect(written.count == Mirror(reflecting: settings).children.count)
      #expect(try JSONDecoder().decode(GameSettings.self, from: Data(out.bytes)) == settings)
    }
  }

  /// Every field of a table record has its key when present (a field added without one fails).
  @Test func everyFieldOfATableRecordHasItsKey() throws {
    let original = record(variant: 0)
    #expect(
      try object(original.storedJSON().utf8).count == Mirror(reflecting: original).children.count)
  }
}
