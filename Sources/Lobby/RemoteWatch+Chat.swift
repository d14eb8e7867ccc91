import Protocol

/// ``RemoteWatch``'s spectators' lines of chat, said at the table through the link.
extension RemoteWatch {
  /// `connection`, watching, says `text` (its own limits checked) as `name`: the line goes
  /// through the link, whose answer (the line as the table keeps it, or a refusal) answers it,
  /// and the others watching here see it. Refused while the link is not there.
  public mutating func chat(
    _ text: String, name: String, from connection: ConnectionID, replyTo: MessageID?
  ) -> [LobbyAction] {
    guard let table = tableOfSpectator[connection], let watch = watches[table], watch.isOpen,
      let key
    else {
      let refusal = ProtocolError(
        .unavailable, "The table cannot be reached just now; try again.", replyTo: replyTo)
      return [.send(Frame(ServerMessage.error(refusal)), to: [connection])]
    }
    asks += 1
    let id = MessageID.string("chat-\(asks)")
    chats[id] = (watch.link, connection, replyTo)
    let message = ClientEnvelope(
      id: id, message: .watcherChat(name: name, text: text, key: key))
    return [.send(Frame(message.json), to: [watch.link])]
  }

  /// Lines said through `link` are answered no more (it is gone).
  mutating func forgetChats(of link: ConnectionID) {
    chats = chats.filter { $0.value.link != link }
  }

  /// How many lines said through a link wait for their answer (for tests: bounded).
  var chatsWaiting: Int { chats.count }
}
