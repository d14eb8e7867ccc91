/// What one known field held on the wire: enough to check its type and range, and no more.
enum FieldValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  /// A number that is not an integer literal that fits in `Int`.
  case number
  case string(String)
  /// A string longer than any field allows; its text is not kept.
  case longString
  /// An array; its contents were checked and skipped.
  case array
  /// An object; its contents were checked and skipped.
  case object
}
