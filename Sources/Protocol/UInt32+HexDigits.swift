extension UInt32 {
  /// The number that the four hex digits at `index` of `bytes` write (a `\u` escape's), or nil
  /// when fewer than four bytes are left or one is not a hex digit. Read by both of the
  /// protocol's JSON readers (``ClientFieldScanner``, ``JSONParser``).
  init?(fourHexDigitsIn bytes: [UInt8], at index: Int) {
    guard index >= 0, bytes.count - index >= 4 else { return nil }
    var value: UInt32 = 0
    for byte in bytes[index..<(index + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    self = value
  }
}
