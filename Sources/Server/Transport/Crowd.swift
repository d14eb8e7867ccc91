import Protocol

/// A table's spectators as the transport sees them (issue 36): every frame sent to them kept
/// once, in order, and each member's place in it (`ConnectionState.cursor`), where a queue
/// entry per spectator per frame made each move cost the service thread ten thousand queue
/// pushes before the players' own frames could go. A member's turn to write
/// (``ServiceLoop/serveCrowds()``) sends what it has not seen, merged with its own frames in the
/// order they were sent (`OutboundQueue` tags each frame with ``ServiceLoop/crowdSequence``).
///
/// The lobby names a crowd by the list of its members it sends to (`sendToCrowd`); a list that
/// is the same array as the last one (the host changes it only when someone comes or goes)
/// means the same members, and any other list brings the members in step with it. Service
/// thread only.
final class Crowd {
  /// The members' ids as the lobby last sent to them (kept: its storage is the crowd's name).
  private(set) var ids: [ConnectionID] = []
  /// The members, in the order their turns come.
  private(set) var members: [ConnectionState] = []
  /// The frames from ``base`` on, their sequence numbers, and the bytes sent to the crowd up to
  /// the end of each.
  private var frames: [Frame] = []
  private var sequences: [UInt64] = []
  private var bytesThrough: [Int] = []
  /// The index (counted from the crowd's first frame) of `frames[0]`.
  private(set) var base = 0
  /// Bytes of every frame before `frames[0]`.
  private var bytesBefore = 0
  /// Whose turn comes next (an index in `members`).
  var turn = 0
  /// Whether the service loop has it among the crowds to serve.
  var isServed = false
  /// The number of the last ``newMembers(_:state:)`` call (its members staying carry it).
  private var mark: UInt64 = 0

  /// The index of the next frame.
  var head: Int { base + frames.count }

  /// Whether `ids` is the list of the last frame: the same storage, so the same members.
  func isSent(to ids: [ConnectionID]) -> Bool {
    ids.count == self.ids.count
      && ids.withUnsafeBufferPointer { new in
        self.ids.withUnsafeBufferPointer { old in new.baseAddress == old.baseAddress }
      }
  }

  /// The members are now `ids`: returns those who left (the caller gives each what it has not
  /// seen) and those who came (``join(_:)``, by the caller). `state` finds the connection an
  /// id names, if it is open.
  ///
  /// Each id is looked up once and each member staying is marked with this call's number
  /// (`ConnectionState.crowdMark`): a storm of spectators changes the list at every batch let
  /// in, and building two sets of every member's id each time made `ServiceLoop.crowd(of:)`
  /// 3.8-4.1 % of the server's samples in a join storm of 10,000; now 2.9-3.0 %
  /// (docs/BENCHMARKS.md, "Storms again").
  ///
  /// A list that changed in a few places is told apart from the last one by comparing ids, not
  /// by looking each up: the host appends a newcomer and puts its last id in the place of one
  /// who leaves, so most places keep their id. An id in the same place in both lists stays
  /// (every member came with an id of a list it was sent, ``join(_:)``); the ids of the other
  /// places, old and new, tell who left and who came. In storms of 10,000 (joining or leaving)
  /// each move's frame found a list changed since the last, and the look-ups took 2.5-3.1 ms
  /// per move on two cores, before the players' frames were written.
  func newMembers(
    _ ids: [ConnectionID], state: (ConnectionID) -> ConnectionState?
  ) -> (left: [ConnectionState], came: [ConnectionID]) {
    if let changes = fewChanges(to: ids, state: state) {
      self.ids = ids
      return changes
    }
    mark &+= 1
    var came: [ConnectionID] = []
    for id in ids {
      if let member = state(id), member.crowd === self {
        member.crowdMark = mark
      } else {
        came.append(id)
      }
    }
    self.ids = ids
    return (members.filter { $0.crowdMark != mark }, came)
  }

  /// Who left and who came, when `ids` differs from the last list in few places (at most a
  /// quarter of them); nil otherwise. A list holds an id once: an id in the same place in both
  /// stays, one of the changed places of the new list that none of the old list's had came,
  /// and the reverse left.
  private func fewChanges(
    to ids: [ConnectionID], state: (ConnectionID) -> ConnectionState?
  ) -> (left: [ConnectionState], came: [ConnectionID])? {
    // More members than ids: one came some other way (never, as members come); look them up.
    guard members.count <= self.ids.count else { return nil }
    let old = self.ids
    let common = min(old.count, ids.count)
    let limit = max(old.count, ids.count) / 4 + 16
    var gone = Array(old[common...])
    var new = Array(ids[common...])
    guard gone.count + new.count <= limit else { return nil }
    for place in 0..<common where ids[place] != old[place] {
      gone.append(old[place])
      new.append(ids[place])
      if gone.count + new.count > limit { return nil }
    }
    // Only newcomers, at the end (the usual case in a join storm).
    if gone.isEmpty { return ([], new) }
    let inNew = Set(new)
    let inOld = Set(gone)
    let left = gone.compactMap { id -> ConnectionState? in
      guard !inNew.contains(id), let member = state(id), member.crowd === self else {
        return nil
      }
      return member
    }
    return (left, new.filter { !inOld.contains($0) })
  }

  /// `state` joins: it sees the frames from now on.
  func join(_ state: ConnectionState) {
    state.crowd = self
    // Unmarked: a mark left by another crowd it watched could equal one of this crowd's.
    state.crowdMark = 0
    state.cursor = head
    state.crowdPlace = members.count
    members.append(state)
  }

  /// `state` leaves: the frames it has not seen, with their sequence numbers.
  func leave(_ state: ConnectionState) -> [(Frame, UInt64)] {
    let unseen = (state.cursor..<head).map { (frames[$0 - base], sequences[$0 - base]) }
    let place = state.crowdPlace
    let last = members.removeLast()
    if last !== state {
      members[place] = last
      last.crowdPlace = place
    }
    if turn >= members.count { turn = 0 }
    state.crowd = nil
    state.crowdPlace = -1
    return unseen
  }

  /// Appends `frame`, numbered `sequence`.
  func append(_ frame: Frame, sequence: UInt64) {
    frames.append(frame)
    sequences.append(sequence)
    bytesThrough.append((bytesThrough.last ?? bytesBefore) + frame.count)
  }

  /// The frame at `index` (``base`` ≤ index < ``head``) and its sequence number.
  func frame(at index: Int) -> (frame: Frame, sequence: UInt64) {
    (frames[index - base], sequences[index - base])
  }

  /// How far `state` is behind: frames and bytes.
  func lag(of state: ConnectionState) -> (frames: Int, bytes: Int) {
    let seen = state.cursor == base ? bytesBefore : bytesThrough[state.cursor - base - 1]
    return (head - state.cursor, (bytesThrough.last ?? bytesBefore) - seen)
  }

  /// Whether the frames kept pass `frameLimit` or `byteLimit` twice over: time to ``trim``.
  func wantsTrim(frameLimit: Int, byteLimit: Int) -> Bool {
    frames.count > 2 * frameLimit
      || (bytesThrough.last ?? bytesBefore) - bytesBefore > 2 * byteLimit
  }

  /// The members more than `frameLimit` frames or `byteLimit` bytes behind (the caller cuts
  /// them, as a queue over its bounds), then forgets the frames every other member has seen.
  func laggards(frameLimit: Int, byteLimit: Int) -> [ConnectionState] {
    members.filter {
      let lag = lag(of: $0)
      return lag.frames > frameLimit || lag.bytes > byteLimit
    }
  }

  /// Forgets the frames every member has seen.
  func trim() {
    let seen = members.map(\.cursor).min() ?? head
    let drop = seen - base
    guard drop > 0 else { return }
    bytesBefore = bytesThrough[drop - 1]
    frames.removeFirst(drop)
    sequences.removeFirst(drop)
    bytesThrough.removeFirst(drop)
    base = seen
  }

  /// How many frames are kept (for tests).
  var framesKept: Int { frames.count }
}
