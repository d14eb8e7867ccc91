import Protocol

extension LobbyState {
  /// A table and the connections at it.
  struct Slot: Sendable {
    var table: any TableArbiter
    /// Every connection at the table, and what it is there.
    var members: [ConnectionID: Role] = [:]
    /// `members`' keys, kept in step, so a broadcast does not build an array.
    var recipients: [ConnectionID] = []
    /// The session that opened the table (for the per-session cap).
    var creator: String

    mutating func add(_ connection: ConnectionID, as role: Role) {
      if members.updateValue(role, forKey: connection) == nil { recipients.append(connection) }
    }

    @discardableResult
    mutating func remove(_ connection: ConnectionID) -> Role? {
      guard let role = members.removeValue(forKey: connection) else { return nil }
      recipients.removeAll { $0 == connection }
      return role
    }

    /// Sends a broadcast whose seats read it differently: each member gets the frame of its
    /// seat (spectators the whole diff), one send per distinct frame.
    func deliver(_ b: TableBroadcast, into actions: inout [LobbyAction]) {
      var groups: [(frame: Frame, to: [ConnectionID])] = []
      for connection in recipients {
        let seat: Int? =
          if case .player(let seat)? = members[connection] { seat } else { nil }
        let frame = b.frame(for: seat)
        if let index = groups.firstIndex(where: { $0.frame === frame }) {
          groups[index].to.append(connection)
        } else {
          groups.append((frame, [connection]))
        }
      }
      for group in groups { actions.append(.send(group.frame, to: group.to)) }
    }
  }
}
