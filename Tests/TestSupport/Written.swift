import Model
import Protocol

/// What the server writes for diff events, from the one encoder it has
/// (``ServerMessage/writeEvent(_:names:naming:to:)``, ``TableEvent/write(to:)`` and the frame of
/// ``ServerMessage/diffFrame(tableID:version:seat:replyTo:status:events:)``). Tests read these
/// bytes back and check what they say; they never build the expected JSON with an encoder of
/// their own, so an event is written in one place.
public enum Written {
  /// The text the server writes for `event` in a diff.
  public static func text<Card: WireCard>(
    _ event: GameEvent<Card>, names: [String] = [], naming: CardNaming<Card> = .byID
  ) -> String {
    var out = JSONWriter()
    ServerMessage.writeEvent(event, names: names, naming: naming, to: &out)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// `event` as the server writes it in a diff, parsed (an object's members come sorted by key:
  /// compare ``text(_:names:naming:)`` where their order matters).
  public static func json<Card: WireCard>(
    _ event: GameEvent<Card>, names: [String] = [], naming: CardNaming<Card> = .byID
  ) -> JSONValue {
    parsed(text(event, names: names, naming: naming))
  }

  /// The text the server writes for `event` in a diff.
  public static func text(_ event: TableEvent) -> String {
    var out = JSONWriter()
    event.write(to: &out)
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// `event` as the server writes it in a diff, parsed.
  public static func json(_ event: TableEvent) -> JSONValue {
    parsed(text(event))
  }

  /// The text of a frame the server sends.
  public static func text(_ frame: Frame) -> String {
    String(decoding: frame.payload, as: UTF8.self)
  }

  /// A frame the server sends, parsed.
  public static func json(_ frame: Frame) -> JSONValue {
    parsed(text(frame))
  }

  /// The diff frame a table writes for a change of `events`, with the envelope's fields and the
  /// status line given.
  public static func diff<Card: WireCard>(
    tableID: String = "t1", version: Int = 1, seat: Int? = 0, replyTo: MessageID? = nil,
    events: [GameEvent<Card>], names: [String] = [], naming: CardNaming<Card> = .byID,
    status: [StyledRun]? = nil
  ) -> Frame {
    ServerMessage.diffFrame(
      tableID: tableID, version: version, seat: seat, replyTo: replyTo, status: status
    ) { list in
      for event in events { list.add(event, names: names, naming: naming) }
    }
  }

  private static func parsed(_ text: String) -> JSONValue {
    JSONValue.parse(text) ?? .string("not JSON: \(text)")
  }
}
