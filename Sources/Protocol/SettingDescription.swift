/// One table setting a game takes (a field of `createTable` and `playSolo`), as `welcome`
/// describes it: its values with their words, its range, and its defaults alone and with others.
/// Described by each game's definition; what the server accepts is the definition's `setup`,
/// which the tests hold to this description.
public struct SettingDescription: Hashable, Sendable {
  /// The field's name: "boardSize", "scoring", "showSelections".
  public var name: String
  /// Its label in a form: "Cards", "Scoring".
  public var label: String
  /// The value at a table of one seat, when not given.
  public var defaultValue: JSONValue
  /// The value at a table of several seats, when it differs from ``defaultValue``.
  public var defaultWithOthers: JSONValue?
  /// The values a form offers (and others accepted, ``SettingChoice/offered`` false), with
  /// their words. Without ``range``, the only values accepted.
  public var choices: [SettingChoice]
  /// Besides the choices, every whole number in this range is accepted.
  public var range: ClosedRange<Int>?
  /// The words after a number of ``range`` that is not a choice ("cards": "13 cards").
  public var unit: String?
  /// Whether only a table of several seats has it to choose (alone there is nobody to pass a
  /// turn to or hide one's picks from).
  public var withOthersOnly: Bool
  /// Other settings it needs, with their values (the scoring constants need `scoring: custom`).
  public var requires: [String: JSONValue]

  /// A setting `name` labelled `label`.
  public init(
    _ name: String, label: String, default defaultValue: JSONValue,
    withOthers defaultWithOthers: JSONValue? = nil, choices: [SettingChoice] = [],
    range: ClosedRange<Int>? = nil, unit: String? = nil, withOthersOnly: Bool = false,
    requires: [String: JSONValue] = [:]
  ) {
    self.name = name
    self.label = label
    self.defaultValue = defaultValue
    self.defaultWithOthers = defaultWithOthers == defaultValue ? nil : defaultWithOthers
    self.choices = choices
    self.range = range
    self.unit = unit
    self.withOthersOnly = withOthersOnly
    self.requires = requires
  }

  /// The value when not given, at a table of `seats` seats.
  public func defaultValue(seats: Int) -> JSONValue {
    seats > 1 ? defaultWithOthers ?? defaultValue : defaultValue
  }

  /// As `welcome` sends it.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("name", .string(name)), ("label", .string(label)), ("default", defaultValue),
    ]
    if let defaultWithOthers { members.append(("defaultWithOthers", defaultWithOthers)) }
    members.append(("choices", .array(choices.map(\.json))))
    if let range { members += [("min", .int(range.lowerBound)), ("max", .int(range.upperBound))] }
    if let unit { members.append(("unit", .string(unit))) }
    if withOthersOnly { members.append(("withOthersOnly", .bool(true))) }
    if !requires.isEmpty {
      members.append(
        ("requires", .object(requires.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
    }
    return .object(members)
  }
}
