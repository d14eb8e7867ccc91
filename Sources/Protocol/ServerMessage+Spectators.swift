/// How many watch a table: told apart from its game (no version, no diff), at most once a second.
extension ServerMessage {
  /// `count` spectators watch table `tableID` now.
  public static func spectators(tableID: String, count: Int) -> JSONValue {
    object("spectators", replyTo: nil, [("table", .string(tableID)), ("count", .int(count))])
  }
}
