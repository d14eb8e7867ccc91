/// Booleans and integers written as JSON values by their literals (`true`, `8`), as strings are
/// (`ServerMessage.swift`): the games' descriptions are written this way.
extension JSONValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self = .int(value) }
}
