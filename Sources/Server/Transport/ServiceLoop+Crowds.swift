import CWebSockets
import Foundation
import Protocol

/// Crowds on the service thread (``Crowd``): a crowd's frame is kept once, and its members'
/// sockets write what they have not seen a few at a time, between everything else.
extension ServiceLoop {
  /// `frame` for the crowd whose members are `ids` (a table's spectators).
  func send(_ frame: Frame, toCrowd ids: [ConnectionID]) {
    guard let crowd = crowd(of: ids) else { return }
    crowd.append(frame, sequence: crowdSequence)
    crowdSequence += 1
    if crowd.wantsTrim(
      frameLimit: configuration.outboundQueueFrameLimit,
      byteLimit: configuration.outboundQueueByteLimit)
    {
      // Those too far behind are cut, as a queue over its bounds is; then what everyone has
      // seen is forgotten.
      for state in crowd.laggards(
        frameLimit: configuration.outboundQueueFrameLimit,
        byteLimit: configuration.outboundQueueByteLimit)
      {
        metrics?.tooSlow()
        violation(state, code: 4000, reason: "too slow")
      }
      crowd.trim()
    }
    if !crowd.isServed {
      crowd.isServed = true
      servedCrowds.append(crowd)
    }
  }

  /// The crowd whose members are `ids`: the one last sent to that list, or the one its members
  /// watch brought in step with it (those who left it get what they had not seen in their own
  /// queue; those who came see its frames from now on), or a new one.
  private func crowd(of ids: [ConnectionID]) -> Crowd? {
    guard !ids.isEmpty else { return nil }
    let name = ids.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    if let crowd = crowds[name], crowd.isSent(to: ids) { return crowd }
    let known = ids.lazy.compactMap { self.connections[$0]?.crowd }.first
    let crowd = known ?? Crowd()
    let old = crowd.ids.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    if crowds[old] === crowd { crowds[old] = nil }
    let (left, came) = crowd.newMembers(ids) { self.connections[$0] }
    for state in left { leaveCrowd(state, keepingUnseen: true) }
    for id in came {
      guard let state = connections[id], state.isOpenForSending else { continue }
      if state.crowd != nil { leaveCrowd(state, keepingUnseen: true) }
      crowd.join(state)
      firstServed.remove(state)
    }
    crowds[name] = crowd
    return crowd
  }

  /// `state` stops watching its crowd: the frames it had not seen go in its own queue, in
  /// order, or nowhere (a connection being cut).
  func leaveCrowd(_ state: ConnectionState, keepingUnseen: Bool) {
    guard let crowd = state.crowd else { return }
    let unseen = crowd.leave(state)
    if keepingUnseen && !unseen.isEmpty {
      state.outbound.merge(unseen)
      requestWrite(state)
    }
    if crowd.members.isEmpty {
      let name = crowd.ids.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
      if crowds[name] === crowd { crowds[name] = nil }
    }
  }

  /// Writes to the next ``TransportConfiguration/crowdWritesPerPass`` members that have frames
  /// to be sent, crowd after crowd, at their turn (``writeAtTurn(_:)``), or asks for their
  /// writable callback where lws still holds some of their last write or a close frame or PING
  /// is due; a crowd whose members have all seen everything is served no more until its next
  /// frame. Called once a pass, before the loop waits (then without waiting, while members are
  /// behind): the players' frames never wait behind more writes than that.
  ///
  /// The crowds take no more than their share of the thread (``CrowdShare``): once it is
  /// spent, a pass gives them no turns, and a timer wakes the loop when it has come back.
  func serveCrowds() {
    guard !servedCrowds.isEmpty else {
      crowdBehind = false
      return
    }
    let began = MonotonicClock.now()
    // A pass slowed to few events (``PassPacing``) is asked for fewer writes than it takes:
    // the sockets asked for and not yet taken would pile up in the kernel's ready list, ahead of
    // everything that becomes ready after them.
    var turns = crowdShare.turns(
      of: passPacing.share(of: configuration.crowdWritesPerPass), at: began)
    if turns == 0 { metrics?.crowdShareWaited() }
    var index = 0
    var wroteAtTurn = false
    while turns > 0 && index < servedCrowds.count {
      let crowd = servedCrowds[index]
      var visited = 0
      var behind = false
      while turns > 0 && visited < crowd.members.count {
        if crowd.turn >= crowd.members.count { crowd.turn = 0 }
        let state = crowd.members[crowd.turn]
        crowd.turn += 1
        visited += 1
        guard state.cursor < crowd.head else { continue }
        behind = true
        guard !state.writeRequested else {
          // Asked to write at its last turn, a whole round ago, and not called back: its socket
          // takes nothing (the peer's window is shut). A write that lws sent whole never put it
          // on the drain watch, and left so it was cut only by the crowd's bounds, tens of
          // seconds later (`test_spectators_that_stop_reading_are_cut_alone` took 43 s in
          // 2 of 9 runs of `make test`, 2.5 s in the others). Watched, the drain bound cuts it.
          watchDrain(state)
          continue
        }
        if state.close.isOpen && state.ping != .wanted && lws_send_pipe_choked(state.wsi) == 0 {
          writeAtTurn(state)
          wroteAtTurn = true
        } else {
          requestWrite(state)
        }
        turns -= 1
      }
      if !behind && visited >= crowd.members.count {
        crowd.isServed = false
        servedCrowds.remove(at: index)
      } else {
        index += 1
      }
    }
    var wait: Double?
    if crowdShare.isBounded {
      // The writes made at the members' turns, and the writable callbacks asked for.
      let now = MonotonicClock.now()
      crowdShare.spent(now - began)
      wait = crowdShare.wait(at: now)
    }
    if !servedCrowds.isEmpty {
      // Writes made at their turns leave the loop nothing to wake it for the next turns: it
      // looks for events without waiting, and comes back here.
      if let wait {
        eventLoop?.wake(in: wait)
      } else if wroteAtTurn {
        eventLoop?.wake(in: 0)
      }
    }
    // Every turn taken and a large crowd still behind: its fan-out keeps the passes after this
    // one busy.
    crowdBehind =
      turns == 0 && servedCrowds.contains { $0.members.count >= Self.pressingCrowdSize }
  }

  /// At the end of each pass (``aboutToWait()``): while the thread is pressed (``PressureHold``:
  /// a large crowd behind, new connections waiting), the journal's writer
  /// (``JournalWriter/followLoopPressure()``) and this thread run with the short scheduler
  /// slice (``Thread/askShortSlice()``), so that a thread that wakes on a core the loop's work
  /// holds takes it at once, the players' frames behind it, and the inline lobby wakes the
  /// writer at each decision. A join storm's first moves waited 1-4 ms for a writer that was
  /// still under the batch policy: only a crowd's fan-out pressed, and the joining crowd had
  /// none yet.
  func followLoopPressure() {
    let sign = crowdBehind || pacing.hasWaiting
    // Fast play's passes, thousands a second, neither press nor were pressed: no clock read.
    guard sign || hasShortSlice else { return }
    let pressing = pressureHold.passEnded(
      crowdBehind: crowdBehind, connectionsWaiting: pacing.hasWaiting, at: MonotonicClock.now())
    guard pressing != hasShortSlice else { return }
    LoopPressure.pressing.store(pressing, ordering: .relaxed)
    hasShortSlice = pressing
    if pressing {
      Thread.askShortSlice()
    } else {
      Thread.askDefaultSlice()
    }
  }

  /// The crowd whose fan-out presses (``serveCrowds()``): a thousand members take milliseconds
  /// of the service thread's passes for each frame; a smaller one's are done in a few passes.
  static let pressingCrowdSize = 1_000
}
