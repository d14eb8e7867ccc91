import Histogram

/// What one event loop counted; the loops' statistics are merged into the report.
public struct LoopStatistics: Sendable {
  /// Move latency in microseconds, for moves scheduled inside the measured window.
  public var latency = Histogram<UInt64>(
    lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000,
    numberOfSignificantValueDigits: .three)
  /// Stall runs: latency of moves scheduled in the window just before the stall.
  public var latencyBeforeStall = Self.makeLatencyHistogram()
  /// Stall runs: latency of moves scheduled in the window that starts with the stall.
  public var latencyDuringStall = Self.makeLatencyHistogram()
  /// Stall runs: latency of the moves made at the same time as the stall windows' (from the
  /// first stall to the end of the last one's window) at tables not in their own stall window:
  /// a control that the machine's ups and downs hit at the same moments.
  public var latencyBesideStall = Self.makeLatencyHistogram()
  /// Stall runs: seconds from the stall to the `away` of the stalled seat, one per table, as
  /// its host saw it.
  public var stallAwaySeconds: [Double] = []
  /// Stall runs: seconds from the stall to the moment each stalled seat's socket was closed by
  /// the server (reset or hung up), as its own client saw it.
  public var stallCutSeconds: [Double] = []
  /// Stall runs: seconds from the moment each stalled seat's unread bytes stopped growing (its
  /// window shut: the server's clock starts then) to its cut.
  public var stallCutAfterShutSeconds: [Double] = []
  /// Stall runs: seconds from each stalled seat's cut to its `away` at its host (0 when the
  /// host saw the `away` first).
  public var stallAwayAfterCutSeconds: [Double] = []
  /// Stall runs: the membership events (`join`, `leave`, `away`, `back`, `host`, `phase`,
  /// `vote`, `spectators`) the hosts of the stalled tables saw after the stall, by kind.
  public var stallTableEvents: [String: Int] = [:]
  /// Storm runs: latency of the players' moves scheduled in the window just before the storm.
  public var latencyBeforeStorm = Self.makeLatencyHistogram()
  /// Storm runs: latency of the players' moves scheduled in the window that starts with it.
  public var latencyDuringStorm = Self.makeLatencyHistogram()
  /// Storm runs: spectators that joined, left or dropped their connection in the storm.
  public var stormActed = 0
  /// Storm runs (join, reconnect): seconds from the storm to each spectator's snapshot.
  public var stormReturnSeconds: [Double] = []
  /// Reconnect storms: spectators whose `hello` resumed their session (`welcome` with
  /// `resumed`), as a client that lost its connection does.
  public var stormResumed = 0
  /// Spectators: microseconds from the scheduled time of a measured move to each spectator's
  /// reading of the diff it made.
  public var spectatorLatency = Self.makeLatencyHistogram()
  /// Diffs read by spectators over the whole run.
  public var spectatorDiffs = 0
  /// `spectators` messages (the crowd's count) read by everyone.
  public var crowdCounts = 0
  /// Handshakes completed (a connection that reconnected in a storm counts again).
  public var connected = 0
  /// Connections seated (players) or watching (spectators) with the board known.
  public var ready = 0
  /// Connections that failed before being ready (connect refused, handshake refused, closed).
  public var setupFailures = 0
  /// Connections still open when the measured window ended.
  public var heldAtWindowEnd = 0
  /// Moves sent whose scheduled time fell in the window.
  public var movesInWindow = 0
  /// Moves sent over the whole run.
  public var movesTotal = 0
  /// Diffs received (by every member) inside the window.
  public var diffsInWindow = 0
  /// Diffs received over the whole run.
  public var diffsTotal = 0
  /// `status` frames received (a v1 server sends one after every diff; v2 none).
  public var statusFrames = 0
  /// Every frame received.
  public var framesTotal = 0
  /// Moves answered by the mover's own diff.
  public var answeredByDiff = 0
  /// Moves answered by an error.
  public var answeredByError = 0
  /// Moves never answered by the end of the drain.
  public var unanswered = 0
  /// `error` frames by code.
  public var errors: [String: Int] = [:]
  /// Closes the server started (or lost connections, as 1006), by code.
  public var closes: [Int: Int] = [:]
  /// Version gaps that needed a `resync`.
  public var resyncs = 0
  /// Sets claimed by bots (play).
  public var setsClaimed = 0
  /// Games that ended (counted by each table's host, play).
  public var gamesOver = 0
  /// Re-deal votes sent by the players when their game ended (play).
  public var redealVotes = 0
  /// New deals after a finished game (counted by each table's host, play).
  public var redeals = 0
  /// Idle mode: liveness moves answered by their diff.
  public var livenessAnswered = 0
  /// Idle mode: liveness moves sent.
  public var livenessSent = 0
  /// Frames that were not valid JSON or WebSocket.
  public var protocolErrors = 0

  /// Empty statistics.
  public init() {}

  /// A histogram of microseconds, like ``latency``.
  static func makeLatencyHistogram() -> Histogram<UInt64> {
    Histogram<UInt64>(
      lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000,
      numberOfSignificantValueDigits: .three)
  }

  /// Adds `other` into these.
  public mutating func merge(_ other: LoopStatistics) {
    latency.add(other.latency)
    latencyBeforeStall.add(other.latencyBeforeStall)
    latencyDuringStall.add(other.latencyDuringStall)
    latencyBesideStall.add(other.latencyBesideStall)
    spectatorLatency.add(other.spectatorLatency)
    latencyBeforeStorm.add(other.latencyBeforeStorm)
    latencyDuringStorm.add(other.latencyDuringStorm)
    stormActed += other.stormActed
    stormReturnSeconds += other.stormReturnSeconds
    stormResumed += other.stormResumed
    spectatorDiffs += other.spectatorDiffs
    crowdCounts += other.crowdCounts
    stallAwaySeconds += other.stallAwaySeconds
    stallCutSeconds += other.stallCutSeconds
    stallCutAfterShutSeconds += other.stallCutAfterShutSeconds
    stallAwayAfterCutSeconds += other.stallAwayAfterCutSeconds
    stallTableEvents.merge(other.stallTableEvents, uniquingKeysWith: +)
    connected += other.connected
    ready += other.ready
    setupFailures += other.setupFailures
    heldAtWindowEnd += other.heldAtWindowEnd
    movesInWindow += other.movesInWindow
    movesTotal += other.movesTotal
    diffsInWindow += other.diffsInWindow
    diffsTotal += other.diffsTotal
    statusFrames += other.statusFrames
    framesTotal += other.framesTotal
    answeredByDiff += other.answeredByDiff
    answeredByError += other.answeredByError
    unanswered += other.unanswered
    errors.merge(other.errors, uniquingKeysWith: +)
    closes.merge(other.closes, uniquingKeysWith: +)
    resyncs += other.resyncs
    setsClaimed += other.setsClaimed
    gamesOver += other.gamesOver
    redealVotes += other.redealVotes
    redeals += other.redeals
    livenessAnswered += other.livenessAnswered
    livenessSent += other.livenessSent
    protocolErrors += other.protocolErrors
  }
}
