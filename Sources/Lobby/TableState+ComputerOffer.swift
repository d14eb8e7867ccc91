import Model
import Protocol

/// A computer player offered to a person waiting alone at a public table (``ComputerOffer``):
/// the table's clock makes the offer, the host takes it (``addComputer(by:level:replyTo:now:)``)
/// and every change of the seats or the phase follows it (``followOffer(now:)``).
extension TableState {
  /// Whether a computer could be offered here now: a public table waiting with one person
  /// seated, a free seat, no computer yet, at a game computers play.
  var waitsAlone: Bool {
    offer.after != nil && phase == .waiting && !isPrivate && !hasBots && seatedCount == 1
      && seatedCount < seats.count
  }

  /// Follows a change of the seats or the phase: the wait starts when one person is left
  /// alone and stops otherwise; an offer that no longer stands is withdrawn (its event).
  mutating func followOffer(now: Double) -> [Entry] {
    guard waitsAlone else {
      offer.aloneSince = nil
      guard offer.isOpen else { return [] }
      offer.isOpen = false
      return [.table(.computerOffer(open: false))]
    }
    if offer.aloneSince == nil { offer.aloneSince = now }
    return []
  }

  /// The clock: the offer is made once its time alone has passed.
  mutating func runOffer(now: Double) -> [Broadcast] {
    guard let due = offer.due, now >= due, waitsAlone else { return [] }
    offer.isOpen = true
    return [
      broadcast(
        seat: nil, replyTo: nil, events: [.table(.computerOffer(open: true))],
        status: [.text("Nobody else has come yet: you can add a computer player.")])
    ]
  }

  /// When the offer is due, if the table waits for it.
  var nextOffer: Double? { waitsAlone ? offer.due : nil }

  /// The host takes the offer: a computer player of `level` sits (and a full table starts).
  public mutating func addComputer(
    by seat: Int, level: BotLevel, replyTo: MessageID?, now: Double
  ) -> Result<Broadcast, ProtocolError> {
    guard seat == host else {
      return .failure(
        ProtocolError(.notHost, "Only the host can add a computer player.", replyTo: replyTo))
    }
    guard offer.isOpen, waitsAlone else {
      let after = Int(offer.after ?? ComputerOffer.defaultAfter)
      return .failure(
        ProtocolError(
          .noOffer,
          "No computer player is offered here: one is to a player waiting alone at a public table for \(after) s.",
          replyTo: replyTo))
    }
    return sitBot(level: level, replyTo: replyTo, now: now).map(\.broadcast)
  }

  /// A person sits at a public table that has not started, where a computer stands in: the
  /// computer gives up its seat (its `leave` event).
  mutating func standInLeaves() -> [Entry] {
    guard !isPrivate, phase == .waiting,
      let seat = seats.lastIndex(where: { $0?.bot != nil })
    else { return [] }
    seats[seat] = nil
    botPlans[seat] = nil
    everSeated.remove(seat)
    return [.table(.left(seat: seat))]
  }
}
