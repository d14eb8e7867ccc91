/// The fuzzer's bytes, read front to back; zeros once they run out.
struct ByteReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number below `n` (n > 0).
  mutating func below(_ n: Int) -> Int { Int(byte()) % n }

  /// Up to `count` raw bytes, as a range of ``bytes``.
  mutating func takeRange(_ count: Int) -> Range<Int> {
    let start = min(bytes.count, offset)
    let end = min(bytes.count, offset + count)
    offset = max(offset, end)
    return start..<end
  }

  /// Up to `count` raw bytes.
  mutating func take(_ count: Int) -> [UInt8] {
    let range = takeRange(count)
    return range.isEmpty ? [] : Array(bytes[range])
  }

  /// The bytes in `range` (from ``takeRange(_:)``).
  subscript(range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }
}
