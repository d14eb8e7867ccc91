/// One row of a query's answer, as PostgreSQL's text format gives it: each column's text, or
/// nil for NULL. ``decode(_:)`` reads the columns in order as Swift values.
struct PostgresRow: Sendable {
  /// The columns' names, for errors.
  let names: [String]
  /// The columns' text; nil for NULL.
  let columns: [String?]

  /// The first column as a `Value`.
  func decode<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
    try column(0, as: Value.self)
  }

  /// The first columns, in order, as the tuple's types: `row.decode((String, Int?).self)`.
  func decode<each Value: PostgresDecodable>(_ types: (repeat each Value).Type) throws
    -> (repeat each Value)
  {
    let cursor = Cursor()
    return (repeat try column(cursor.next(), as: (each Value).self))
  }

  /// Column `index` as a `Value`.
  private func column<Value: PostgresDecodable>(_ index: Int, as type: Value.Type) throws
    -> Value
  {
    let name = index < names.count ? names[index] : "#\(index + 1)"
    guard index < columns.count else {
      throw PostgresDecodingError(column: name, expected: "\(Value.self)", found: "no column")
    }
    guard let value = Value(postgresText: columns[index]) else {
      throw PostgresDecodingError(
        column: name, expected: "\(Value.self)", found: columns[index].map { "\"\($0)\"" } ?? "NULL"
      )
    }
    return value
  }

  /// The next column's index, counted while a tuple is decoded.
  private final class Cursor {
    private var index = -1
    func next() -> Int {
      index += 1
      return index
    }
  }
}

/// A Swift value read from a column's text (nil: NULL).
protocol PostgresDecodable {
  /// The value `text` spells, or nil if it spells none of this type.
  init?(postgresText text: String?)
}

extension Int: PostgresDecodable {
  init?(postgresText text: String?) {
    guard let text, let value = Int(text) else { return nil }
    self = value
  }
}

extension Double: PostgresDecodable {
  init?(postgresText text: String?) {
    // "Infinity" and "NaN", as PostgreSQL writes them, are Swift's spellings too.
    guard let text, let value = Double(text) else { return nil }
    self = value
  }
}

extension Bool: PostgresDecodable {
  init?(postgresText text: String?) {
    switch text {
    case "t": self = true
    case "f": self = false
    default: return nil
    }
  }
}

extension String: PostgresDecodable {
  init?(postgresText text: String?) {
    guard let text else { return nil }
    self = text
  }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
  init?(postgresText text: String?) {
    guard let text else {
      self = .none
      return
    }
    guard let value = Wrapped(postgresText: text) else { return nil }
    self = .some(value)
  }
}

/// A column's text was not a value of the type asked for.
struct PostgresDecodingError: Error, CustomStringConvertible {
  /// The column's name.
  let column: String
  /// The Swift type asked for.
  let expected: String
  /// What the column held.
  let found: String

  var description: String { "unexpected \(found) in column \(column) (expected \(expected))" }
}
