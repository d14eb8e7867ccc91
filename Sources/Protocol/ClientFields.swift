/// The known fields of one frame, one slot per field.
struct ClientFields: Sendable {
  /// Room for this many fields; raise it when ``ClientField`` outgrows it (a test checks).
  static let capacity = 40

  // Inline storage: decoding a frame allocates nothing for its fields.
  private var slots = InlineArray<40, FieldValue?>(repeating: nil)

  /// The value of `field`, or nil when the frame did not have it.
  subscript(field: ClientField) -> FieldValue? { slots[field.rawValue] }

  /// Records `value`; false when `field` was already there.
  mutating func add(_ field: ClientField, _ value: FieldValue) -> Bool {
    guard slots[field.rawValue] == nil else { return false }
    slots[field.rawValue] = value
    return true
  }
}
