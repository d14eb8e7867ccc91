import Protocol

extension JSONValue {
  /// The compact encoding as a string.
  public var text: String { String(decoding: encoded, as: UTF8.self) }

  /// The members' keys, in order, when this is an object.
  public var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.0)
  }

  /// The elements, when this is an array.
  public var elements: [JSONValue]? {
    guard case .array(let items) = self else { return nil }
    return items
  }

  /// The integer, when this is an integer.
  public var intValue: Int? {
    guard case .int(let value) = self else { return nil }
    return value
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    guard case .string(let value) = self else { return nil }
    return value
  }

  /// The boolean, when this is one.
  public var boolValue: Bool? {
    guard case .bool(let value) = self else { return nil }
    return value
  }

  /// Parses a message written in a test.
  public static func parse(_ text: String) -> JSONValue? { parse(Array(text.utf8)) }
}
