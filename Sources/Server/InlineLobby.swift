import Foundation
import Lobby
import Protocol
import Store

/// The lobby's state machine run on the transport's service thread: each message is decided
/// and its frames queued in the same pass of the loop that read it, with no thread hop and no
/// wake. The shell is this thin: events in (decoded here, as in every shell), actions out,
/// carried out by the transport at once.
final class InlineLobby: ServiceThreadHandler {
  private var state: LobbyState
  private var metrics: LobbyMetrics?
  /// Whether there are ``metrics``: asked on every move, where `metrics != nil` (and a match)
  /// copied them out (callgrind).
  private let measures: Bool
  /// Messages past a pass's budget, decided in the passes after (``Admission``).
  private var admission = Admission<AdmissionItem>()
  /// When this pass decided its first message other than a move, read or waiting (nil: none
  /// yet), for its slice (``admissionSlice``).
  private var admittingSince: Double?
  private let outlets: LobbyOutlets
  /// How long the journal's writer may have had work before a pass's end gives it the core
  /// (``passEnded()``), in seconds; nil: never (a process with more than one core).
  let journalYieldAfter: Double?
  /// The passes that gave the core up so far (``journalYieldAfter``).
  private(set) var journalYields = 0
  /// Whether the service thread is pressed (``LoopPressure``): its passes run long, so each
  /// decision wakes the journal's writer at once rather than at the pass's end.
  let loopPressed: @Sendable () -> Bool

  /// Runs `state` on the service thread, exporting to `metrics` after each event; journal
  /// entries go to the `outlets`' journal, and the frames after them wait until they are
  /// written. On a single core (``UsableCores``) a pass gives the core to a writer that has
  /// had work for `journalYieldAfter` seconds.
  init(
    state: LobbyState, metrics: LobbyMetrics? = nil, outlets: LobbyOutlets = LobbyOutlets(),
    journalYieldAfter: Double? = UsableCores.count == 1 ? InlineLobby.journalWakeDelay : nil,
    loopPressed: @escaping @Sendable () -> Bool = {
      LoopPressure.pressing.load(ordering: .relaxed)
    }
  ) {
    self.state = state
    self.loopPressed = loopPressed
    self.metrics = metrics
    measures = metrics != nil
    self.journalYieldAfter = journalYieldAfter
    var outlets = outlets
    // The moves of one pass of the loop share one wake of the writer (`passEnded`).
    outlets.wakesJournalLater = true
    self.outlets = outlets
  }

  var decidesInline: Bool { true }

  // The work is done by static functions on `inout` state: a method or getter called on the
  // stored `state` of this class would be handed a copy of the whole lobby (a retain and a
  // release of every part of it, ~1,300 instructions per move), an `inout` access is not.

  func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
    switch event {
    case .message(let connection, let bytes, let receivedAt) where !connection.isLink:
      let item = AdmissionItem.message(
        connection, ClientMessageDecoder.decode(bytes), receivedAt: receivedAt)
      guard admitRead(item, now: now) else { return }
      decide(item, now: now, commands: &commands)
    case .closed(let connection):
      guard admitRead(.closed(connection), now: now) else { return }
      decide(.closed(connection), now: now, commands: &commands)
    default:
      Self.handle(
        event, now: now, state: &state, metrics: &metrics, outlets: outlets, commands: &commands)
    }
  }

  func admitNext(now: Double, commands: inout [TransportCommand]) -> Bool {
    guard !sliceSpent(at: now), let item = admission.next() else { return false }
    if admittingSince == nil { admittingSince = now }
    // The moves this pass read are not kept from the writer while the crowd is decided.
    outlets.journal?.wakeIfOwed(queuedBefore: .infinity)
    decide(item, now: now, commands: &commands)
    return true
  }

  func deadlineReached(now: Double, commands: inout [TransportCommand]) {
    // What waited first, as much as this pass's budget allows (the loop has decided it one by
    // one already); then the lobby's own clock.
    while admitNext(now: now, commands: &commands) {}
    guard let due = Self.nextDeadline(of: &state, metrics: &metrics), due <= now else { return }
    Self.advance(
      now: now, state: &state, metrics: &metrics, outlets: outlets, commands: &commands)
  }

  func nextDeadline() -> Double? {
    // Something waiting is due at once: the loop reads the sockets, then comes back for it.
    if admission.hasWaiting { return 0 }
    return Self.nextDeadline(of: &state, metrics: &metrics)
  }

  func passEnded() {
    admission.passEnded()
    admittingSince = nil
    guard let journal = outlets.journal else { return }
    journal.wakeIfOwed()
    // On a single core the writer runs only when this thread lets it: while a crowd keeps the
    // thread busy, pass after pass, moves waited for the slice's end (up to 1.5 ms in a steady
    // crowd of 10,000, 21 ms in its reconnect storm; docs/BENCHMARKS.md). A writer whose work
    // has waited gets the core before the next pass; one with fresh work runs when this
    // thread sleeps, as in fast play, where a yield every pass cost more than it saved. The
    // writer, down, retries on its own.
    guard let after = journalYieldAfter, let since = journal.workSince,
      !journal.failing.load(ordering: .relaxed), MonotonicClock.now() - since >= after
    else { return }
    journalYields += 1
    Thread.yieldCore()
  }

  func loopWillWait() {
    // The new connections' first messages and the players read between them, decided after
    // the pass ended: their entries owe the writer its wake. Only an atomic load when nothing
    // is owed (the lock of `wakeIfOwed()`, once more every pass, cost fast play).
    outlets.journal?.wakeIfOwed(queuedBefore: .infinity)
  }

  /// Whether an item read in this pass is decided now (``Admission/admit(_:sliceSpent:)``):
  /// past the pass's slice only moves are; anything else decided starts the slice's clock.
  private func admitRead(_ item: AdmissionItem, now: Double) -> Bool {
    guard admission.admit(item, sliceSpent: sliceSpent(at: now)) else { return false }
    if admittingSince == nil && !item.isMove { admittingSince = now }
    return true
  }

  /// Whether this pass's slice for what is not a move is over at `now`.
  private func sliceSpent(at now: Double) -> Bool {
    guard let since = admittingSince else { return false }
    return now - since >= Self.admissionSlice
  }

  /// Messages and closes waiting for a later pass (``Admission``).
  var waitingMessages: Int { admission.waiting }

  private func decide(_ item: AdmissionItem, now: Double, commands: inout [TransportCommand]) {
    Self.decide(
      item, now: now, state: &state, metrics: &metrics, measures: measures, outlets: outlets,
      commands: &commands)
    // The pass's first entries wait at most `journalWakeDelay` for the writer's wake. A pressed
    // loop's pass runs long (a join storm's passes let in connection after connection) and its
    // moves waited that cutoff or the pass's end: then each decision wakes the writer at once.
    outlets.journal?.wakeIfOwed(
      queuedBefore: loopPressed() ? .infinity : now - Self.journalWakeDelay)
  }

  private static func decide(
    _ item: AdmissionItem, now: Double, state: inout LobbyState, metrics: inout LobbyMetrics?,
    measures: Bool, outlets: LobbyOutlets, commands: inout [TransportCommand]
  ) {
    if let journal = outlets.journal {
      state.noteJournal(failing: journal.failing.load(ordering: .relaxed))
    }
    switch item {
    case .message(let connection, let decoded, let receivedAt):
      let accepted = state.movesAccepted
      commands.append(
        actions: state.handle(.message(connection, decoded), now: now), to: outlets)
      // The move's latency ends when its frames leave, behind the journal like them.
      if measures && state.movesAccepted != accepted {
        commands.append(.moveShown(receivedAt: receivedAt))
      }
    case .closed(let connection):
      commands.append(
        actions: state.handle(.disconnected(connection), now: now), to: outlets)
    }
    commands.append(actions: state.catchUp(now: now), to: outlets)
    export(now: now, state: &state, metrics: &metrics)
  }

  /// How long one pass may go on deciding messages other than moves (read in the pass or
  /// waiting from earlier ones), in seconds, besides their count
  /// (``AdmissionBudget/perPass``): a storm's spectators cost 40 µs each on average but up to
  /// hundreds (a resumed session's snapshot, its table's listing published again), and a pass
  /// of 32 held the players' next moves several milliseconds (docs/BENCHMARKS.md, "The drain
  /// check and the listen queue in steps"). The rest wait for the next pass, which comes at once.
  static let admissionSlice = 0.0005

  /// How long the first entries of a pass may wait for the writer's wake, in seconds: a pass
  /// normally ends (and wakes it, ``passEnded()``) well before; one that runs long under load
  /// (hundreds of messages) wakes it on the way, so that its first moves are not held for the
  /// whole pass. Measured with `scripts/bench.sh fastplay` (docs/BENCHMARKS.md): the moves'
  /// latency inside the server fell from 4-5.5 ms to 1.2 ms on average.
  static let journalWakeDelay = 0.0005

  private static func handle(
    _ event: TransportEvent, now: Double, state: inout LobbyState, metrics: inout LobbyMetrics?,
    outlets: LobbyOutlets, commands: inout [TransportCommand]
  ) {
    // The journal failing (or writing again) is news for the lobby: it refuses moves meanwhile.
    if let journal = outlets.journal {
      state.noteJournal(failing: journal.failing.load(ordering: .relaxed))
    }
    switch event {
    case .opened(let connection, let address):
      if connection.isLink {
        // A link to another node opened (``RemoteWatch``).
        commands.append(actions: state.handle(.linkOpened(connection), now: now), to: outlets)
        break
      }
      // Its unknown invite codes count against its address too.
      if let address { state.noteAddress(address, of: connection) }
      return
    case .message(let connection, let bytes, _) where connection.isLink:
      // Another node's message to this one's link: not a client's, not decoded as one.
      commands.append(
        actions: state.handle(.linkMessage(connection, bytes), now: now), to: outlets)
    case .message, .closed:
      // Client messages and closes go through the admission (`decide`).
      preconditionFailure("a client's message or close handled past its admission")
    case .news(let news, let done):
      commands.append(actions: state.handle(.cluster(news), now: now), to: outlets)
      // Its commands are carried out before the service thread takes anything else.
      done()
    }
    commands.append(actions: state.catchUp(now: now), to: outlets)
    export(now: now, state: &state, metrics: &metrics)
  }

  private static func advance(
    now: Double, state: inout LobbyState, metrics: inout LobbyMetrics?, outlets: LobbyOutlets,
    commands: inout [TransportCommand]
  ) {
    commands.append(actions: state.handle(.clock, now: now), to: outlets)
    export(now: now, state: &state, metrics: &metrics)
  }

  private static func nextDeadline(of state: inout LobbyState, metrics: inout LobbyMetrics?)
    -> Double?
  {
    let due = state.nextDeadline()
    guard let tables = metrics?.nextTableExport else { return due }
    return min(due ?? tables, tables)
  }

  private static func export(
    now: Double, state: inout LobbyState, metrics: inout LobbyMetrics?
  ) {
    // Changed where they are: `metrics != nil` copied them (their gauges' maps) out of the
    // `inout` (callgrind).
    metrics?.export(state, now: now)
  }
}
