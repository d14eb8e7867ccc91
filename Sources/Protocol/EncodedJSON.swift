/// A part of a message written once as JSON text and copied as it is into each frame that
/// carries it: a game's look back goes into the diff of every seat and spectator view of the
/// move that ended it, and was written (as a ``JSONValue`` tree) once per view.
public struct EncodedJSON: Hashable, Sendable {
  /// The text: one whole JSON value.
  public let bytes: [UInt8]

  /// The value `write` writes.
  public init(writing write: (inout JSONWriter) -> Void) {
    var out = JSONWriter()
    write(&out)
    bytes = out.bytes
  }

  /// `value`, written (tests and readers of the wire make one from what they parsed).
  public init(_ value: JSONValue) {
    self.init { $0.value(value) }
  }

  /// The value read back (nil only if the text was not JSON, which no writer makes).
  public var value: JSONValue? { JSONValue.parse(bytes) }
}

extension JSONWriter {
  /// Appends JSON written before, as it is.
  public mutating func encoded(_ json: EncodedJSON) {
    bytes.append(contentsOf: json.bytes)
  }
}
