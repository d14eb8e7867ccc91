/// A value bound to an SQLite statement or read from a row.
enum SQLiteValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

/// A Swift type a column is read as (``SQLiteRow``) and a parameter is bound from.
protocol SQLiteColumn {
  /// The column's value as this type, or nil (NULL, or another kind of value).
  init?(sqlite value: SQLiteValue)
  /// The value bound for it.
  var sqliteValue: SQLiteValue { get }
}

extension Int: SQLiteColumn {
  init?(sqlite value: SQLiteValue) {
    guard case .integer(let integer) = value else { return nil }
    self = Int(integer)
  }
  var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int64: SQLiteColumn {
  init?(sqlite value: SQLiteValue) {
    guard case .integer(let integer) = value else { return nil }
    self = integer
  }
  var sqliteValue: SQLiteValue { .integer(self) }
}

extension Bool: SQLiteColumn {
  init?(sqlite value: SQLiteValue) {
    guard case .integer(let integer) = value else { return nil }
    self = integer != 0
  }
  var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension Double: SQLiteColumn {
  /// A REAL column, or an INTEGER one (SQLite keeps a whole REAL as an integer in some cases).
  init?(sqlite value: SQLiteValue) {
    switch value {
    case .real(let real): self = real
    case .integer(let integer): self = Double(integer)
    default: return nil
    }
  }
  var sqliteValue: SQLiteValue { .real(self) }
}

extension String: SQLiteColumn {
  init?(sqlite value: SQLiteValue) {
    guard case .text(let text) = value else { return nil }
    self = text
  }
  var sqliteValue: SQLiteValue { .text(self) }
}

extension Optional where Wrapped: SQLiteColumn {
  /// The value bound for it: NULL for nil.
  var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}

/// One row read from a statement: its values by column name or position.
struct SQLiteRow {
  /// The statement's column names, in order.
  let columns: [String]
  let values: [SQLiteValue]

  /// The value of column `index` as `T`, or nil (NULL or another kind).
  func value<T: SQLiteColumn>(_ index: Int) -> T? {
    index < values.count ? T(sqlite: values[index]) : nil
  }

  /// The value of column `name` as `T`, or nil (NULL, another kind, no such column).
  subscript<T: SQLiteColumn>(_ name: String) -> T? {
    columns.firstIndex(of: name).flatMap { value($0) }
  }

  /// The value of column `name` as `T`; a column that is NULL or of another kind (which the
  /// schema rules out for the columns read so) reads as `T`'s zero.
  subscript<T: SQLiteColumn & ZeroValue>(_ name: String) -> T {
    self[name] ?? T.zero
  }
}

/// A type's value for a column that should never be NULL (``SQLiteRow``).
protocol ZeroValue {
  static var zero: Self { get }
}

extension Int: ZeroValue {}
extension Int64: ZeroValue {}
extension Double: ZeroValue {}
extension String: ZeroValue {
  static var zero: String { "" }
}
extension Bool: ZeroValue {
  static var zero: Bool { false }
}
