import Protocol

/// Something that happens to the lobby: what ``LobbyState/handle(_:now:)``, its one entry
/// point, takes. The shell decodes messages; the lobby never sees their bytes.
public enum LobbyEvent: Sendable {
  /// One complete message from a connection, decoded (or refused by the decoder).
  case message(ConnectionID, Result<ClientEnvelope, ProtocolError>)
  /// The connection has gone.
  case disconnected(ConnectionID)
  /// Time has moved on: whatever is due by now happens.
  case clock
  /// News from the other nodes of the cluster (``LobbyConfiguration/cluster``).
  case cluster(ClusterNews)
  /// A link this node asked for (``LobbyAction/connect(_:url:)``) opened.
  case linkOpened(ConnectionID)
  /// A link carried a message from the other node (a server's message, not decoded).
  case linkMessage(ConnectionID, [UInt8])
}
