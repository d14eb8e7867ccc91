import Protocol

/// Chat: at the sender's table for everyone there, or in the lobby for everyone who watches its
/// list.
extension LobbyState {
  /// `session` says `text` (trimmed and checked by the decoder). A session over its allowance
  /// (``ChatAllowances``) is refused with `tooFast` and nothing is said.
  mutating func chat(
    _ text: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard chatAllowances.take(session.token, now: now) else {
      let wait = Int(chatAllowances.wait(session.token, now: now).rounded(.up))
      reply(
        ProtocolError(
          .tooFast, "You are chatting too fast; wait \(max(1, wait)) s before the next line.",
          replyTo: replyTo), to: connection)
      return
    }
    if remote.table(watchedBy: connection) != nil {
      // A table of another node, watched from here: the line goes through the link.
      out += remote.chat(text, name: session.name, from: connection, replyTo: replyTo)
      return
    }
    if let tableID = session.tableID, hosts.contains(tableID) {
      let event = TableHost.Event.chat(
        text: text, name: session.name, seat: session.seat, connection: connection,
        replyTo: replyTo)
      if handle(event, at: tableID, now: now) != nil { settle(tableID, now: now) }
      return
    }
    // The lobby's chat is not kept: it reaches who watches the list now.
    let line = ChatLine(name: session.name, text: text)
    let others = feed.watchers.filter { $0 != connection }
    if !others.isEmpty {
      out.append(
        .send(Frame(ServerMessage.chat(line, in: .lobby, replyTo: nil)), to: Array(others)))
    }
    send(ServerMessage.chat(line, in: .lobby, replyTo: replyTo), to: connection)
  }
}
