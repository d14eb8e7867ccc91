import Lobby
import Model
import Protocol
import Synchronization

/// One input's run: the state machine, the connections the fuzzer speaks through and the clock.
struct LobbyRun {
  /// Most events one input plays. Fuzz runs give at most 64 bytes, fewer events than this; it
  /// bounds longer inputs run by hand.
  static let maxSteps = 200
  /// How many connections are open at once.
  static let connectionCount = 4

  var input: ByteReader
  var state: LobbyState
  /// Whether a seated player's `choose` is decided on its table's shard, as the sharded
  /// executors decide it, rather than by ``LobbyState/receive(_:from:now:)``.
  let movesOnShards: Bool
  /// Whether the lobby journals: its entries are written to ``journal`` as the shell's writer
  /// would, the journal may go down and come back, and the lobby may be started again from it.
  let journaling: Bool
  /// What the lobby journaled so far.
  var journal = JournalImage()
  /// How the lobby was made, to make it again at a restart.
  let configuration: LobbyConfiguration
  let entropy: LobbyEntropy
  var now: Double = 0
  /// The connection each of the fuzzer's slots holds now; a slot gets a new one when it drops.
  var connections: [ConnectionID]
  var nextConnection: UInt64
  /// How many session tokens were handed out: "tok1", "tok2", ...
  let issued = Counter()
  var messageNumber = 0
  /// The message being written; reused, so that writing one allocates nothing.
  var text: [UInt8] = []
  /// Where each field of the message being written starts in ``text``.
  var fieldStarts: [Int] = []
  /// The `"id":…,` member being written, before it goes in among the fields.
  var idText: [UInt8] = []

  init(input: ByteReader) {
    var input = input
    // 0: one state, every message through `receive`; 1, 2, 3: that many shards, moves on them.
    // 4 to 7: the same, journaling.
    let mode = input.below(8)
    movesOnShards = mode % 4 > 0
    journaling = mode >= 4
    self.input = input
    var configuration = LobbyConfiguration()
    // Small limits and short timings, so that few bytes reach every edge.
    configuration.countdown = 1
    configuration.reconnectGrace = 5
    configuration.emptyTableGrace = 3
    configuration.spectatorLimit = 2
    configuration.tablesPerSession = 2
    configuration.maxTables = 5
    configuration.inviteMissBurst = 3
    configuration.inviteMissRefillSeconds = 2
    configuration.inviteCodeLength = 4
    configuration.journal = journaling
    let issued = self.issued
    let seeds = Mutex(SplitMix64(seed: 1))
    let codes = Mutex(SplitMix64(seed: 2))
    let entropy = LobbyEntropy(
      seed: { seeds.withLock { $0.next() } },
      token: {
        issued.count.withLock {
          $0 += 1
          return "tok\($0)"
        }
      },
      below: { n in codes.withLock { Int($0.next() % UInt64(n)) } })
    self.configuration = configuration
    self.entropy = entropy
    state = LobbyState(configuration: configuration, entropy: entropy, shards: max(1, mode % 4))
    connections = (1...UInt64(Self.connectionCount)).map { ConnectionID($0) }
    nextConnection = UInt64(Self.connectionCount) + 1
    text.reserveCapacity(256)
    fieldStarts.reserveCapacity(8)
    idText.reserveCapacity(32)
  }

  mutating func play() {
    var steps = 0
    while !input.isAtEnd && steps < Self.maxSteps {
      steps += 1
      step()
      checkInvariants(step: steps)
    }
  }

  /// One event, its kind picked by the next byte.
  mutating func step() {
    let kind = input.byte()
    let slot = Int(kind >> 5) % Self.connectionCount
    switch kind & 0x1F {
    case 0..<22:
      writeMessage(from: slot)
      send(text, from: slot)
    case 22..<24:
      send(input.take(input.below(48)), from: slot)
    case 26 where journaling:
      // The journal's writer starts or stops failing; the shell tells the lobby before the
      // next event.
      state.journalAvailable(state.journalDown)
    case 27 where journaling:
      restart()
    case 24..<26:
      let connection = connections[slot]
      connections[slot] = newConnection()
      apply(state.disconnected(connection, now: now))
      catchUp()
    default:
      let choice = input.byte()
      now += Self.timeSteps[Int(choice & 0x0F) % Self.timeSteps.count] + Double(choice >> 4) / 64
      // Mostly the timer fires at once; sometimes it is late and the next event comes first.
      if kind & 0x20 == 0 || kind & 0x1F == 31 {
        apply(state.advance(to: now))
      }
    }
  }

  /// How far the clock may move in one event, before a fuzzed fraction is added.
  static let timeSteps: [Double] = [0, 0.1, 0.25, 0.5, 0.9, 1, 1.5, 2.5, 3, 3.5, 5, 6, 30, 61]

  mutating func newConnection() -> ConnectionID {
    defer { nextConnection += 1 }
    return ConnectionID(nextConnection)
  }

  /// What the shell does after each event: whatever came due meanwhile happens.
  mutating func catchUp() {
    apply(state.catchUp(now: now))
  }

  mutating func send(_ bytes: [UInt8], from slot: Int) {
    let connection = connections[slot]
    let decoded = ClientMessageDecoder.decode(bytes)
    // As a sharded executor does: a seated player's move needs only its table's shard.
    if movesOnShards, let move = state.shardMove(decoded, from: connection) {
      let before = state.movesAccepted
      // On the shard lent, as `ShardedLobby` plays it.
      var shards = state.lendShards()
      let (actions, accepted) = LobbyState.play(move, in: &shards[move.shard], now: now)
      state.takeBack(shards)
      precondition(
        state.movesAccepted == before + (accepted ? 1 : 0), "a move accepted but not counted")
      apply(actions)
    } else {
      apply(state.receive(decoded, from: connection, now: now))
    }
    catchUp()
  }

  /// Carries the actions out as the shell would: a closed connection drops, and its slot gets a
  /// new one. Every frame must be one JSON object whose first member is a known `type`.
  mutating func apply(_ actions: [LobbyAction]) {
    for action in actions {
      switch action {
      case .send(let frame, let recipients), .sendToCrowd(let frame, let recipients), .sendAtOnce(let frame, let recipients):
        precondition(!recipients.isEmpty, "a frame for nobody")
        frame.withWireBuffer { payload, count in
          FrameCheck.check(UnsafeBufferPointer(start: payload, count: count))
        }
      case .close(let connection, _, _), .closeAtOnce(let connection, _, _):
        guard let slot = connections.firstIndex(of: connection) else { continue }
        connections[slot] = newConnection()
        // The transport reports the closed connection gone, after the actions of this event.
        let more = state.disconnected(connection, now: now)
        apply(more)
      case .journal(let entry):
        precondition(journaling, "a journal entry from a lobby that does not journal")
        // While the journal is down players' moves and re-deals are refused; a pass the table
        // makes itself (a turn's time up, a player gone) is still journaled, its frames held.
        if case .move(let move) = entry, state.journalDown {
          if case .pass = move.move {
          } else {
            fatalError("a player's move journaled while the journal is down: \(move)")
          }
        }
        journal.write(entry)
      case .query:
        // The shell asks the store; the answer does not come back to the lobby.
        precondition(journaling, "a query for records from a lobby that keeps none")
      case .publish, .missedGuess, .findSession, .log, .connect:
        fatalError("a cluster's action from a lobby that is no node of one")
      }
    }
  }
}
