import Protocol

extension JSONValue {
  /// The compact encoding as a string.
  var text: String { String(decoding: encoded, as: UTF8.self) }

  /// The elements, when this is an array.
  var elements: [JSONValue]? {
    guard case .array(let items) = self else { return nil }
    return items
  }

  /// The integer, when this is an integer.
  var intValue: Int? {
    guard case .int(let value) = self else { return nil }
    return value
  }

  /// The string, when this is a string.
  var stringValue: String? {
    guard case .string(let value) = self else { return nil }
    return value
  }

  /// The boolean, when this is one.
  var boolValue: Bool? {
    guard case .bool(let value) = self else { return nil }
    return value
  }

  /// Parses a message written in a test.
  static func parse(_ text: String) -> JSONValue? { parse(Array(text.utf8)) }
}
