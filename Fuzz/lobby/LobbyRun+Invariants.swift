import Lobby

/// What a run checks of the lobby after every event.
extension LobbyRun {
  /// What must hold after every event.
  func checkInvariants(step: Int) {
    let directory = state.tableDirectory
    // No public listing without a table.
    for listing in directory.publicListings {
      precondition(
        state.table(listing.id) != nil, "step \(step): \(listing.id) is listed but closed")
    }
    // Every session's table exists, lists it unless private, and has it in the seat it says.
    for session in state.sessions {
      guard let tableID = session.tableID else {
        precondition(session.seat == nil, "step \(step): a seat without a table")
        continue
      }
      guard let table = state.table(tableID) else {
        fatalError("step \(step): \(session.token) is at \(tableID), which is closed")
      }
      precondition(
        table.isPrivate || directory.entry(tableID) != nil,
        "step \(step): public \(tableID) is not in the directory")
      if let seat = session.seat {
        precondition(
          table.seat(of: session.token) == seat,
          "step \(step): \(session.token) thinks it sits in seat \(seat) at \(tableID)")
      }
    }
    let shardCount = state.shardCount
    for id in state.tableIDs {
      guard let table = state.table(id) else { fatalError("step \(step): \(id) has no table") }
      // Table "tN" is in shard N % shardCount: its players' moves are decided there, unless
      // it is turn-based (a move then sets the turn clock, which needs the whole state) or the
      // journal is down (the whole state refuses every move then).
      let shard =
        table.isTurnBased || state.journalDown ? nil : Int(id.dropFirst()).map { $0 % shardCount }
      // Seats 0..<64 as bits (the decoder allows 1...8 seats); any other in a set.
      var seats: UInt64 = 0
      var otherSeats = Set<Int>()
      var spectators = 0
      for (connection, role) in state.members(of: id) {
        // Every member has a session at that table, in the role it has there.
        guard let session = state.session(for: connection) else {
          fatalError("step \(step): member \(connection) of \(id) has no session")
        }
        precondition(session.tableID == id, "step \(step): \(connection) at \(id) is elsewhere")
        switch role {
        case .player(let seat):
          // One member per seat.
          let first: Bool
          if (0..<64).contains(seat) {
            first = seats & (1 << UInt64(seat)) == 0
            seats |= 1 << UInt64(seat)
          } else {
            first = otherSeats.insert(seat).inserted
          }
          precondition(first, "step \(step): two members in seat \(seat)")
          precondition(session.seat == seat, "step \(step): \(connection) in the wrong seat")
          precondition(
            state.playingShard(of: connection) == shard,
            "step \(step): \(connection) plays at \(id) on the wrong shard (or none)")
        case .spectator:
          spectators += 1
          precondition(session.seat == nil, "step \(step): a seated spectator")
          precondition(
            state.playingShard(of: connection) == nil, "step \(step): a spectator with a shard")
        }
      }
      precondition(
        table.spectators == spectators,
        "step \(step): \(id) counts \(table.spectators) spectators, has \(spectators)")
    }
  }
}
