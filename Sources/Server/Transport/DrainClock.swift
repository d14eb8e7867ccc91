/// When a connection whose output does not drain is cut: a pure value that the service thread
/// asks at every drain check (`ServiceLoop+Drain.swift`) and that tests drive directly.
///
/// A connection is *blocked* at a check when what the server wrote to it cannot leave: its
/// kernel holds bytes unsent (the peer's receive window is shut), or lws holds the rest of a
/// frame the kernel would not take. A peer that reads keeps its window open, so nothing stays
/// unsent; a peer that stops reading shuts its window within a few frames and stays blocked.
/// The connection's own queue does not count: frames waiting there while the socket could
/// take them wait for the server (a busy service thread), not for the peer.
///
/// The clock of a connection starts at the first check that finds it blocked and stops at the
/// first that does not. While blocked, a peer that takes at least `progressBytes` (its kernel
/// acknowledges them) starts the clock again: a slow link that keeps reading is not cut by the
/// clock (the outbound queue's byte bound is there for a stream it cannot keep up with). A
/// connection blocked for `bound` seconds without that progress is cut, whatever its queue
/// holds. Checks come every `TransportConfiguration.drainCheckInterval`, so a connection is cut
/// at most that much (and the length of a sweep, ``DrainSweep``) after `bound` has passed since
/// its window shut.
struct DrainClock: Sendable {
  /// What a check decides about one connection.
  enum Verdict: Equatable {
    /// Not blocked: the clock stops.
    case drained
    /// Blocked, not yet for `bound` without progress: the clock runs.
    case waiting
    /// Blocked for `waitedSeconds` (at least `bound`) without progress: close the connection.
    case cut(waitedSeconds: Double)
  }

  /// Where a connection's clock is.
  struct Reading: Equatable {
    /// The first check of this stretch that found it blocked.
    var since: Double
    /// The bytes its peer had acknowledged then.
    var acknowledged: UInt64
  }

  /// Bytes a blocked peer must take for its clock to start again.
  static let progressBytes: UInt64 = 4096

  /// Seconds blocked without progress after which a connection is cut; 0 never cuts.
  let bound: Double

  /// Decides about a connection whose clock is `reading` (nil: stopped), found at `now`
  /// `blocked` or not, its peer having acknowledged `acknowledged` bytes in all (read only when
  /// it is blocked), and moves its clock.
  func check(reading: inout Reading?, blocked: Bool, acknowledged: UInt64, now: Double)
    -> Verdict
  {
    guard blocked else {
      reading = nil
      return .drained
    }
    guard let running = reading,
      acknowledged < running.acknowledged
        || acknowledged - running.acknowledged < Self.progressBytes
    else {
      reading = Reading(since: now, acknowledged: acknowledged)
      return .waiting
    }
    if bound > 0 && now - running.since >= bound { return .cut(waitedSeconds: now - running.since) }
    return .waiting
  }
}
