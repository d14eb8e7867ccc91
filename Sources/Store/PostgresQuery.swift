/// One SQL statement and its values, written as a string whose interpolations are values:
/// `"SELECT name FROM session WHERE token = \(token)"` sends `$1` in the statement and the
/// token apart, so no value is ever read as SQL. `\(unescaped: text)` puts SQL text in as it
/// is (made here of numbers and names, never of what a client sent).
///
/// Each value goes as text with its PostgreSQL type (`Int` as `bigint`, `String` as `text`,
/// `Double` as `double precision`, `Bool` as `boolean`, an array as an array of those), so
/// that functions and `unnest` know it, as a binary protocol would tell them.
struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
  /// The statement, with `$1`, `$2`, … where the values go.
  var sql: String
  /// Each value's text; nil for NULL.
  var values: [String?] = []
  /// Each value's type (its OID in `pg_type`).
  var types: [UInt32] = []

  /// A statement with no values, as it is (several statements may then be one string).
  init(unsafeSQL sql: String) {
    self.sql = sql
  }

  init(stringLiteral sql: String) {
    self.sql = sql
  }

  init(stringInterpolation: StringInterpolation) {
    sql = stringInterpolation.sql
    values = stringInterpolation.values
    types = stringInterpolation.types
  }

  struct StringInterpolation: StringInterpolationProtocol {
    var sql = ""
    var values: [String?] = []
    var types: [UInt32] = []

    init(literalCapacity: Int, interpolationCount: Int) {
      sql.reserveCapacity(literalCapacity + 4 * interpolationCount)
    }

    mutating func appendLiteral(_ literal: String) {
      sql += literal
    }

    mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
      bind(value.postgresText, type: Value.postgresType)
    }

    mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
      bind(value?.postgresText, type: Value.postgresType)
    }

    mutating func appendInterpolation(unescaped text: String) {
      sql += text
    }

    private mutating func bind(_ text: String?, type: UInt32) {
      values.append(text)
      types.append(type)
      sql += "$\(values.count)"
    }
  }
}

/// A value a ``PostgresQuery`` can carry: its text as PostgreSQL reads it, and its type.
protocol PostgresEncodable {
  /// The type's OID in `pg_type`.
  static var postgresType: UInt32 { get }
  /// The value as PostgreSQL's input function for ``postgresType`` reads it.
  var postgresText: String { get }
}

/// A value that can be an element of an array a ``PostgresQuery`` carries.
protocol PostgresArrayElement: PostgresEncodable {
  /// The OID of the array type of this element type.
  static var postgresArrayType: UInt32 { get }
  /// The value as an element of an array literal (`{…}`).
  var postgresElement: String { get }
}

extension PostgresArrayElement {
  var postgresElement: String { postgresText }
}

extension Int: PostgresArrayElement {
  static var postgresType: UInt32 { 20 }  // bigint
  static var postgresArrayType: UInt32 { 1016 }
  var postgresText: String { String(self) }
}

extension Double: PostgresArrayElement {
  static var postgresType: UInt32 { 701 }  // double precision
  static var postgresArrayType: UInt32 { 1022 }
  // Swift's shortest form that reads back as the same value; "inf", "-inf" and "nan" are
  // PostgreSQL's spellings too.
  var postgresText: String { "\(self)" }
}

extension Bool: PostgresArrayElement {
  static var postgresType: UInt32 { 16 }  // boolean
  static var postgresArrayType: UInt32 { 1000 }
  var postgresText: String { self ? "t" : "f" }
}

extension String: PostgresArrayElement {
  static var postgresType: UInt32 { 25 }  // text
  static var postgresArrayType: UInt32 { 1009 }
  var postgresText: String { self }
  /// Quoted, with `"` and `\` escaped: any text, the empty one and `NULL` included.
  var postgresElement: String {
    var quoted = "\""
    for character in unicodeScalars {
      if character == "\"" || character == "\\" { quoted.unicodeScalars.append("\\") }
      quoted.unicodeScalars.append(character)
    }
    return quoted + "\""
  }
}

extension Array: PostgresEncodable where Element: PostgresArrayElement {
  static var postgresType: UInt32 { Element.postgresArrayType }
  var postgresText: String { "{" + map(\.postgresElement).joined(separator: ",") + "}" }
}

extension Int64: PostgresEncodable {
  static var postgresType: UInt32 { 20 }  // bigint
  var postgresText: String { String(self) }
}
