import Protocol

/// What a table's node does for the links other nodes opened to it (``RemoteWatch`` is the
/// other end): counts their spectators, and says their spectators' lines. A link proves it is
/// one with the cluster's key (``LobbyConfiguration/linkKey``), and must spectate here.
extension LobbyState {
  /// Another node's link on `connection` says it watches this node's table for `count`
  /// spectators of its own: the table counts them (at most its spectator limit).
  mutating func weigh(
    _ count: Int, key: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard let tableID = linkedTable(key: key, session, replyTo: replyTo, connection) else {
      return
    }
    let weighed = TableHost.Event.weigh(
      connection: connection, count: min(count, configuration.spectatorLimit))
    guard handle(weighed, at: tableID, now: now) != nil else { return }
    settle(tableID, now: now)
  }

  /// Another node's link on `connection` says `text` for its spectator `name`: the table
  /// keeps and shows it as that spectator's line (the link's own answer carries it back; that
  /// node checked the spectator's limits).
  mutating func relayChat(
    _ text: String, name: String, key: String, _ session: SessionRegistry.Session,
    replyTo: MessageID?, _ connection: ConnectionID, now: Double
  ) {
    guard let tableID = linkedTable(key: key, session, replyTo: replyTo, connection) else {
      return
    }
    let event = TableHost.Event.chat(
      text: text, name: name, seat: nil, connection: connection, replyTo: replyTo)
    if handle(event, at: tableID, now: now) != nil { settle(tableID, now: now) }
  }

  /// The table the link on `connection` watches here, if it gave the cluster's `key` and
  /// spectates one; or nil, after saying why not.
  private mutating func linkedTable(
    key: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID
  ) -> String? {
    guard let linkKey = configuration.linkKey, key == linkKey else {
      reply(
        ProtocolError(.badField, "Field 'key' is not this cluster's link key.", replyTo: replyTo),
        to: connection)
      return nil
    }
    guard let tableID = session.tableID, session.seat == nil else {
      reply(
        ProtocolError(
          .notAtTable, "Only a link that spectates here speaks for others.", replyTo: replyTo),
        to: connection)
      return nil
    }
    return tableID
  }
}
