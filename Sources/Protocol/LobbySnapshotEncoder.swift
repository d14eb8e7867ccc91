/// Encodes the lobby's whole table list (`lobbySnapshot`) once per version of the list, and
/// each answer from that encoding: every request for the same version differs only in its
/// `replyTo`, so only that is written per request.
///
/// The bytes are those of ``ServerMessage/lobbySnapshot(replyTo:version:tables:)``: the type,
/// the reply id if any, then the version and the tables.
public struct LobbySnapshotEncoder: Sendable {
  /// What follows the reply id (the version, the tables and the closing brace), and the
  /// version it was encoded for.
  private var tail: (version: Int, bytes: [UInt8])?

  /// An encoder that has encoded nothing yet.
  public init() {}

  /// The snapshot of version `version`, answering `replyTo`. `tables` (the public list, in its
  /// order) is read only when the version differs from the one encoded last.
  public mutating func frame(
    replyTo: MessageID?, version: Int, tables: () -> [TableListing]
  ) -> Frame {
    if tail?.version != version {
      var bytes = Array(#","version":"#.utf8)
      JSONValue.int(version).write(to: &bytes)
      bytes += #","tables":"#.utf8
      JSONValue.array(tables().map(\.json)).write(to: &bytes)
      bytes.append(UInt8(ascii: "}"))
      tail = (version, bytes)
    }
    let tail = tail!.bytes
    return Frame { out in
      out += #"{"type":"lobbySnapshot""#.utf8
      if let replyTo {
        out += #","replyTo":"#.utf8
        replyTo.json.write(to: &out)
      }
      out += tail
    }
  }
}
