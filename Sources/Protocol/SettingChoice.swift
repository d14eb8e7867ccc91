/// One value of a table setting as `welcome` describes it: the value, its words in a form, and
/// its words in the line that sums up a table's settings.
public struct SettingChoice: Hashable, Sendable {
  /// The value, as `createTable` and `playSolo` carry it.
  public var value: JSONValue
  /// The words in a form: "15 cards", "Classic (a set is a point)".
  public var text: String
  /// The words in a table's summary line and a high-score list's name ("Classic scoring"); nil:
  /// ``text``; empty: the value goes without saying.
  public var summary: String?
  /// Whether a form offers it (false: accepted, but not a form's choice, e.g. `custom` scoring,
  /// which needs constants a small form does not ask for).
  public var offered: Bool

  /// The choice of `value`.
  public init(_ value: JSONValue, _ text: String, summary: String? = nil, offered: Bool = true) {
    self.value = value
    self.text = text
    self.summary = summary
    self.offered = offered
  }

  /// As `welcome` sends it: `summary` only when it differs from `text`, `form` only when false.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [("value", value), ("text", .string(text))]
    if let summary, summary != text { members.append(("summary", .string(summary))) }
    if !offered { members.append(("form", .bool(false))) }
    return .object(members)
  }
}
