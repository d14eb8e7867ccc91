import Model
import Testing

@testable import Protocol

/// A run's fields other than its card are kept once and shared by its copies (a run is copied
/// many times a move): a copy is a reference and a card, and a change to a copy is its own.
@Suite struct StyledRunSharingTests {
  private static func written(_ run: StyledRun) -> String {
    var out = JSONWriter()
    run.write(to: &out)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// Ten fields, five of them strings, were copied one by one (some 170 bytes).
  @Test func aRunIsAReferenceAndACard() {
    #expect(MemoryLayout<StyledRun>.size <= 24)
  }

  /// Each change to a copy of a kept card run leaves the run as it was (its fields, bytes and
  /// hash); the copy differs, and changed back it equals the run again, though its fields are
  /// kept apart now.
  @Test func aChangeToACopyIsTheCopysOwn() {
    let run = SetCard.fullDeck[40].statusRun
    let bytes = Self.written(run)
    let hash = run.hashValue
    let changes: [(String, (inout StyledRun) -> Void, (inout StyledRun) -> Void)] = [
      ("text", { $0.text = "x" }, { $0.text = run.text }),
      ("color", { $0.color = "#000000" }, { $0.color = run.color }),
      ("card", { $0.card = 7 }, { $0.card = run.card }),
      ("symbol", { $0.symbol = "é" }, { $0.symbol = run.symbol }),
      ("count", { $0.count = 9 }, { $0.count = run.count }),
      ("shading", { $0.shading = nil }, { $0.shading = run.shading }),
      ("alpha", { $0.alpha = 0.5 }, { $0.alpha = run.alpha }),
      ("stroke", { $0.stroke = 3 }, { $0.stroke = run.stroke }),
      ("label", { $0.label = "l" }, { $0.label = run.label }),
      ("seat", { $0.seat = 2 }, { $0.seat = run.seat }),
    ]
    for (field, change, undo) in changes {
      var copy = run
      change(&copy)
      #expect(copy != run, "\(field)")
      #expect(Self.written(copy) != bytes, "\(field)")
      #expect(Self.written(run) == bytes, "\(field)")
      #expect(run.hashValue == hash, "\(field)")
      undo(&copy)
      #expect(copy == run, "\(field)")
      #expect(copy.hashValue == hash, "\(field)")
      #expect(Self.written(copy) == bytes, "\(field)")
    }
  }
}
