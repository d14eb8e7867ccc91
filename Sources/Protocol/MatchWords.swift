/// What a game calls a match, for the texts that name one: "set" and "sets", "an UltraSet".
public struct MatchWords: Hashable, Sendable {
  /// One match: "set", "pair".
  public var one: String
  /// Several: "sets", "pairs".
  public var many: String
  /// The indefinite article before ``one``: "a", or "an" ("an UltraSet").
  public var article: String

  /// The words `one` and `many`, `one` read after `article`.
  public init(_ one: String, _ many: String, article: String = "a") {
    self.one = one
    self.many = many
    self.article = article
  }

  /// "a set", "an UltraSet".
  public var aMatch: String { "\(article) \(one)" }

  /// `count` in words, for sizes: "two", "three"; digits beyond ten.
  public static func number(_ count: Int) -> String {
    let words = [
      "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ]
    return words.indices.contains(count) ? words[count] : String(count)
  }

  /// As `welcome` sends them: `{"one":"set","many":"sets","a":"a set"}`.
  public var json: JSONValue {
    .object([("one", .string(one)), ("many", .string(many)), ("a", .string(aMatch))])
  }
}
