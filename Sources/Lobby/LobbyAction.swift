import Protocol

/// What the lobby asks its shell to do. The shell carries the actions out in order.
public enum LobbyAction: Sendable {
  /// Send one frame, shared by every recipient, to each of `to`.
  case send(Frame, to: [ConnectionID])
  /// Send one frame, shared by all, to a table's spectators: after the frames of the same
  /// change for its players, at the pace the shell gives a crowd (it may write their sockets
  /// over several passes of its loop, so that a player's next frame never waits behind them).
  case sendToCrowd(Frame, to: [ConnectionID])
  /// Send one frame at once, ahead of any frame still waiting for the journal: it shows nothing
  /// the journal keeps (a refusal while the journal cannot be written, which the player should
  /// hear of now, not once the journal writes again).
  case sendAtOnce(Frame, to: [ConnectionID])
  /// Close a connection with a WebSocket close code, after what was queued for it.
  case close(ConnectionID, code: UInt16, reason: String)
  /// Close a connection at once, ahead of anything queued or held for it, and send it nothing
  /// more: its table was taken over by another node, so what waits for it may never be shown.
  case closeAtOnce(ConnectionID, code: UInt16, reason: String)
  /// Write this down (``LobbyConfiguration/journal``): the actions after it may be carried out
  /// only once it is written. A batch of actions lists its journal entries first.
  case journal(JournalEntry)
  /// Read finished games from the store and answer `connection` (``RecordRequest``): the only
  /// question the lobby cannot answer from memory.
  indirect case query(RecordRequest)
  /// Tell the other nodes of the cluster what changed at this node's tables, once what is
  /// queued for the journal before it is written (``LobbyConfiguration/cluster``).
  case publish([ClusterChange])
  /// A client address tried an invite code nobody has: the other nodes count it too
  /// (``ClusterNews/guessesMissed(_:)``).
  case missedGuess(address: String)
  /// Look up the session whose token hashes to `token` in the shared database, claiming it for
  /// this node unless another holds its table, and answer with ``ClusterNews/session(_:_:)``
  /// for `connection`, whose `hello` waits for it.
  case findSession(token: String, for: ConnectionID)
  /// Write a line in the server's log (the lobby keeps no logger of its own).
  case log(LobbyLog)
  /// Open link `link` (``ConnectionID/link(_:)``) to the node whose WebSocket URL is `url`
  /// (``RemoteWatch``): it is reported like a connection (``LobbyEvent/linkOpened(_:)``, its
  /// messages as ``LobbyEvent/linkMessage(_:_:)``, then ``LobbyEvent/disconnected(_:)``; only
  /// the last if it never opened).
  case connect(ConnectionID, url: String)
}
