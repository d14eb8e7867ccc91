/// The journal's hold on the transport's commands: a pure value that the service thread runs
/// over every command it takes from its inbox, and that tests drive directly.
///
/// A `hold` of a ticket stops every command after it until a `release` of that ticket or a
/// later one: the frames that show a journal batch leave only once the batch is written. The
/// commands then go on in the order they came. A `sendAtOnce` never waits (it shows nothing a
/// batch records), nor does a `release`; a `hold` of a ticket released already holds nothing.
struct HeldCommands {
  /// Commands waiting behind a `hold` whose ticket is not released yet, in order.
  private(set) var waiting: [TransportCommand] = []
  /// The latest ticket released.
  private(set) var releasedTicket: UInt64 = 0

  /// Takes `command` from the inbox; `carryOut` is called with every command to carry out now,
  /// in order (this one, or those a release lets go), never with a `hold` or a `release`.
  mutating func take(_ command: TransportCommand, carryOut: (TransportCommand) -> Void) {
    switch command {
    case .release(let ticket):
      // Never held: it lets go what waits, up to the first hold of a later ticket.
      releasedTicket = max(releasedTicket, ticket)
      var index = 0
      while index < waiting.count {
        if case .hold(let ticket) = waiting[index] {
          if ticket > releasedTicket { break }
        } else {
          carryOut(waiting[index])
        }
        index += 1
      }
      waiting.removeFirst(index)
    case .sendAtOnce, .closeAtOnce:
      carryOut(command)
    case .hold(let ticket) where waiting.isEmpty:
      if ticket > releasedTicket { waiting.append(command) }
    case _ where !waiting.isEmpty:
      // Behind a hold: in order, after it.
      waiting.append(command)
    default:
      carryOut(command)
    }
  }
}
