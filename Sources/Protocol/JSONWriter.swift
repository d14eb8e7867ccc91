/// Writes JSON text straight into a byte buffer, piece by piece, without building a
/// ``JSONValue`` tree first: the hot path (one diff per accepted move) uses it to encode a
/// message directly into its ``Frame``.
///
/// Fixed parts (braces, keys, the quotes around them) are appended as literal text with
/// ``raw(_:)``; values go through ``int(_:)``, ``string(_:)``, ``double(_:)`` and friends, which
/// encode exactly as ``JSONValue/write(to:)`` does, so both paths give the same bytes.
public struct JSONWriter {
  /// The text written so far (after whatever the buffer held when the writer was made).
  public var bytes: [UInt8]

  /// A writer appending to `bytes`.
  public init(bytes: [UInt8] = []) {
    self.bytes = bytes
  }

  /// Appends `text` as it is: literal JSON, keys already quoted and escaped.
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends one byte of literal JSON (a brace, a comma).
  @inline(__always)
  public mutating func byte(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Appends an integer.
  public mutating func int(_ value: Int) {
    JSONValue.writeInteger(value, to: &bytes)
  }

  /// Appends a string, quoted and escaped.
  public mutating func string(_ value: String) {
    JSONValue.writeString(value, to: &bytes)
  }

  /// Appends a number as ``JSONValue/double(_:)`` encodes it.
  public mutating func double(_ value: Double) {
    JSONValue.writeDouble(value, to: &bytes)
  }

  /// Appends `true` or `false`.
  public mutating func bool(_ value: Bool) {
    if value { raw("true") } else { raw("false") }
  }

  /// Appends a message id (a number or a string).
  public mutating func messageID(_ id: MessageID) {
    switch id {
    case .int(let i): int(i)
    case .string(let s): string(s)
    }
  }

  /// Appends a whole value (for the rare parts that exist only as a tree).
  public mutating func value(_ value: JSONValue) {
    value.write(to: &bytes)
  }

  /// Appends `[` then the integers, comma-separated, then `]`.
  public mutating func ints(_ values: some Sequence<Int>) {
    byte(UInt8(ascii: "["))
    separated(values) { $0.int($1) }
    byte(UInt8(ascii: "]"))
  }

  /// Writes each of `items` with `write`, a comma between two: the elements of an array, or
  /// the members of an object, whose brackets the caller writes.
  public mutating func separated<Items: Sequence>(
    _ items: Items, _ write: (inout JSONWriter, Items.Element) throws -> Void
  ) rethrows {
    var first = true
    for item in items {
      if !first { byte(UInt8(ascii: ",")) }
      first = false
      try write(&self, item)
    }
  }
}
