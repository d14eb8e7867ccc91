import Testing

@testable import LoadKit

/// The small JSON reader the load generator uses for server frames.
struct JSONTests {
  @Test func readsADiff() throws {
    let diff = try JSON.parse(
      #"{"type":"diff","version":7,"seat":0,"replyTo":9,"events":[{"kind":"deck","count":60}]}"#)
    #expect(diff["type"]?.string == "diff")
    #expect(diff["version"]?.int == 7)
    #expect(diff["events"]?.array?.first?["count"]?.int == 60)
    #expect(diff["missing"] == nil)
  }

  @Test func readsEveryKindOfValue() throws {
    let value = try JSON.parse(#" {"a":[true,false,null,-12,0.35,1e3,"x"],"b":{}} "#)
    #expect(
      value["a"]
        == .array([
          .bool(true), .bool(false), .null, .number(-12), .number(0.35), .number(1000),
          .string("x"),
        ]))
    #expect(value["b"] == .object([:]))
    #expect(value["a"]?.array?[4].int == nil)
  }

  @Test func decodesEscapes() throws {
    let value = try JSON.parse(#"["a\"b\\c\/d\n", "\u00e9\u2234", "\ud83c\udccf"]"#)
    #expect(value.array?.map(\.string) == ["a\"b\\c/d\n", "é∴", "🃏"])
  }

  @Test func keepsUTF8Text() throws {
    #expect(try JSON.parse(#"{"text":"∿∿ ◆"}"#)["text"]?.string == "∿∿ ◆")
  }

  @Test(arguments: [#"{"a":1"#, #"{"a" 1}"#, "[1,]", "tru", #""open"#, "{} x", "-", ""])
  func rejectsMalformedText(text: String) {
    #expect(throws: JSONError.self) { try JSON.parse(text) }
  }

  @Test func boundsNesting() {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: JSONError.self) { try JSON.parse(deep) }
  }
}
