import Foundation
import Lobby
import Protocol
import Synchronization

/// The sharded lobby on its executor threads: how a batch of events is decided, under which
/// locks, and how what was decided is handed over (``ShardedLobby``).
extension ShardedLobby {
  /// How much of the state an executor holds.
  enum Hold {
    case none
    /// The state shared, and the lock of this shard if any.
    case shared(shard: Int?)
    case exclusive
  }

  /// What an executor decided and has not handed over yet.
  struct Pending {
    var actions: [LobbyAction] = []
    var movesReceivedAt: [Double] = []
    var routes: [ConnectionRoute] = []
  }

  /// What one pass of an executor holds and owes.
  struct Pass {
    var hold = Hold.none
    var pending = Pending()
    /// Client message bytes decided, for the transport's inbound bound.
    var bytes = 0
    /// Whom to tell once the news they brought is with the transport.
    var dones: [@Sendable () -> Void] = []
  }

  /// Decides a batch of events, moves at once and the rest as far as the budget of the
  /// transport's current pass allows (``Admission``), then what waited from earlier batches;
  /// returns whether to run again at once: something waits and the executor is stopping, or the
  /// transport's pass ended before the executor said so (else that pass's end nudges it).
  ///
  /// The budget is the transport's pass's, not the batch's, and all executors share it: the
  /// frames of what they decide are written by the service thread, so a storm of spectators
  /// (their snapshots) is decided no faster than ``AdmissionBudget/perPass`` for each pass of
  /// the loop that writes them, and a player's frame never waits behind thousands of theirs.
  func run(_ batch: [Event], on index: Int, timerDue: Bool, stopping: Bool) -> Bool {
    var pass = Pass()
    let slot = admissions[index]
    let servicePass = servicePasses.load(ordering: .acquiring)
    // Stopping, nothing is held back: whatever waits is decided before the executor ends.
    if stopping { admissionBudget.refill() }
    slot.admission.begin()
    for event in batch {
      let work = Work(event)
      if slot.admission.admit(work) { decide(work, in: &pass) }
    }
    while let work = slot.admission.next() { decide(work, in: &pass) }
    let waiting = slot.admission.hasWaiting
    slot.waiting.store(waiting, ordering: .sequentiallyConsistent)
    if timerDue { holdExclusively(&pass.hold, &pass.pending) }
    release(&pass.hold, &pass.pending)
    // What the news decided is with the transport now.
    for done in pass.dones { done() }
    if pass.bytes > 0 { consumed(pass.bytes) }
    guard waiting else { return false }
    // Stopping, what waits is decided at once; otherwise in the transport's next pass, which
    // nudges this executor unless it ended before `waiting` was set: then at once.
    return stopping || servicePasses.load(ordering: .sequentiallyConsistent) != servicePass
  }

  private func decide(_ work: Work, in pass: inout Pass) {
    switch work {
    case .message(let connection, let decoded, let bytes, let receivedAt, let route):
      pass.bytes += bytes
      if let journal,
        journal.failing.load(ordering: .relaxed) != journalDown.load(ordering: .relaxed)
      {
        holdExclusively(&pass.hold, &pass.pending)
        // Read again under the hold: another executor may have told the lobby meanwhile.
        let failing = journal.failing.load(ordering: .relaxed)
        state.noteJournal(failing: failing)
        journalDown.store(failing, ordering: .relaxed)
      }
      if decoded.isMove {
        if case .exclusive = pass.hold { release(&pass.hold, &pass.pending) }
        if case .none = pass.hold {
          movesWaiting.add(1, ordering: .sequentiallyConsistent)
          lock.readLock()
          movesWaiting.subtract(1, ordering: .sequentiallyConsistent)
          pass.hold = .shared(shard: nil)
        }
        // Whether its shard decides it alone, asked under the shared hold.
        if let move = state.shardMove(decoded, from: connection) {
          let shard = move.shard
          if case .shared(let held) = pass.hold, held != shard {
            if let held {
              handOver(&pass.pending)
              slots[held].lock.unlock()
            }
            slots[shard].lock.lock()
            pass.hold = .shared(shard: shard)
          }
          let (actions, accepted) = LobbyState.play(move, in: &slots[shard].shard, now: now())
          pass.pending.actions += actions
          // With metrics, each accepted move's latency ends when its frames leave.
          if accepted && measuresLatency { pass.pending.movesReceivedAt.append(receivedAt) }
          pass.pending.routes.append(route)
          return
        }
      }
      // Anything else needs the whole state.
      holdExclusively(&pass.hold, &pass.pending)
      if let address = route.untoldAddress() { state.noteAddress(address, of: connection) }
      pass.pending.actions += state.handle(.message(connection, decoded), now: now())
      route.hint(state.playingShard(of: connection).map(executor(ofShard:)) ?? -1)
      pass.pending.routes.append(route)
    case .closed(let connection, let route):
      holdExclusively(&pass.hold, &pass.pending)
      pass.pending.actions += state.handle(.disconnected(connection), now: now())
      pass.pending.routes.append(route)
    case .other(let event):
      holdExclusively(&pass.hold, &pass.pending)
      switch event {
      case .message(let connection, let message, _, let route):
        // Another node's message to this one's link: the whole state's (``RemoteWatch``).
        pass.bytes += message.count
        pass.pending.actions += state.handle(.linkMessage(connection, message), now: now())
        pass.pending.routes.append(route)
      case .linkOpened(let connection):
        pass.pending.actions += state.handle(.linkOpened(connection), now: now())
      case .closed(let connection, let route):
        pass.pending.actions += state.handle(.disconnected(connection), now: now())
        pass.pending.routes.append(route)
      case .news(let news, let done):
        pass.pending.actions += state.handle(.cluster(news), now: now())
        pass.dones.append(done)
      }
    }
  }

  private func holdExclusively(_ hold: inout Hold, _ pending: inout Pending) {
    if case .exclusive = hold { return }
    release(&hold, &pending)
    // Holding nothing now: the moves waiting go first (each holds the state shared only for
    // its own decision).
    while movesWaiting.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
    lock.writeLock()
    takeBack()
    hold = .exclusive
  }

  /// Hands over what was decided, then lets go of the locks that ordered it. Under an
  /// exclusive hold, whatever came due happens first, the metrics are exported and the clock's
  /// executor learns the next deadline.
  private func release(_ hold: inout Hold, _ pending: inout Pending) {
    switch hold {
    case .none:
      return
    case .shared(let shard):
      handOver(&pending)
      if let shard { slots[shard].lock.unlock() }
    case .exclusive:
      let time = now()
      pending.actions += state.catchUp(now: time)
      handOver(&pending)
      // `measuresLatency`, not `metrics != nil`: the comparison copies the metrics out.
      if measuresLatency && time >= lastExport + Self.exportInterval {
        metrics!.export(state, now: time)
        lastExport = time
      }
      var wake = state.nextDeadline()
      if measuresLatency {
        let export = lastExport + Self.exportInterval
        wake = min(wake ?? export, export)
      }
      executors[0].wake(at: wake)
      lend()
    }
    lock.unlock()
    hold = .none
  }

  /// Gives the transport what was decided (while the deciding locks are still held), then
  /// lets each connection's next message go to whichever executor its route names.
  private func handOver(_ pending: inout Pending) {
    if !pending.actions.isEmpty {
      perform(pending.actions, pending.movesReceivedAt)
      pending.actions.removeAll(keepingCapacity: true)
    }
    pending.movesReceivedAt.removeAll(keepingCapacity: true)
    for route in pending.routes { route.done() }
    pending.routes.removeAll(keepingCapacity: true)
  }
}
