import Foundation

/// A line of chat as it was said: who said it (their name, and their seat at a table, or that
/// they watched) and when. Lines said at a table are kept with it (its journal record) and with
/// the game they were said during, for the replay.
///
/// Times are a table's own: the deal the line was said in and how far into its play (0 before
/// play began), so that they survive a restart and mean the same in the record of the game.
public struct ChatLine: Hashable, Sendable, Codable {
  /// The sender's name when they said it.
  public var name: String
  /// The sender's seat, at a table where they played; nil for a spectator or in the lobby.
  public var seat: Int?
  /// Whether the sender watched the table rather than played.
  public var spectator: Bool
  /// What they said: one line, trimmed, plain text (never markup).
  public var text: String
  /// The table's deal when it was said (0 in the lobby).
  public var deal: Int
  /// Seconds into that deal's play when it was said (0 before play began).
  public var at: Double

  /// Creates a line.
  public init(
    name: String, seat: Int? = nil, spectator: Bool = false, text: String, deal: Int = 0,
    at: Double = 0
  ) {
    self.name = name
    self.seat = seat
    self.spectator = spectator
    self.text = text
    self.deal = deal
    self.at = at
  }

  /// Where a line was said.
  public enum Place: String, Sendable {
    case table, lobby
  }

  /// The sender's members of a `chat` message or record entry: `name`, then `seat` or
  /// `spectator: true`.
  var senderMembers: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [("name", .string(name))]
    if let seat { members.append(("seat", .int(seat))) }
    if spectator { members.append(("spectator", .bool(true))) }
    return members
  }
}

extension ServerMessage {
  /// The `chat` message: `line`, said at the table or in the lobby, with `replyTo` for the
  /// sender's own copy.
  public static func chat(_ line: ChatLine, in place: ChatLine.Place, replyTo: MessageID?)
    -> JSONValue
  {
    object(
      "chat", replyTo: replyTo,
      [("where", .string(place.rawValue))] + line.senderMembers + [("text", .string(line.text))])
  }

  /// The lines of chat a snapshot or a record carries, oldest first; in a record (`timed`)
  /// each with `at`, the seconds into the game when it was said.
  public static func chatLines(_ lines: [ChatLine], timed: Bool) -> JSONValue {
    .array(
      lines.map { line in
        var members = line.senderMembers + [("text", .string(line.text))]
        if timed { members.append(("at", .double(tenths(line.at)))) }
        return .object(members)
      })
  }
}
