// fuzz-modules: Model Protocol Lobby
import Lobby
import Protocol
import Synchronization

/// libFuzzer's entry point: plays the input as a sequence of events against one `LobbyState`
/// (client messages from a few connections, disconnects, time moving on) and checks the lobby's
/// invariants after every event. A broken invariant stops the run with a crash report and the
/// input that led to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func lobbyFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  var run = LobbyRun(input: ByteReader(bytes))
  run.play()
  return 0
}

/// The fuzzer's bytes, read front to back; zeros once they run out.
struct ByteReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number below `n` (n > 0).
  mutating func below(_ n: Int) -> Int { Int(byte()) % n }

  /// Up to `count` raw bytes.
  mutating func take(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + count)
    defer { offset = end }
    return offset < end ? Array(bytes[offset..<end]) : []
  }
}

/// splitmix64: the deterministic source behind the lobby's entropy in a fuzz run.
struct SplitMix {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// How many session tokens a run's entropy handed out (shared with its `token` closure).
final class Counter: Sendable {
  let count = Mutex(0)
}

/// One input's run: the state machine, the connections the fuzzer speaks through and the clock.
struct LobbyRun {
  /// Most events one input plays, so that every input stays quick.
  static let maxSteps = 200
  /// How many connections are open at once.
  static let connectionCount = 4

  var input: ByteReader
  var state: LobbyState
  var now: Double = 0
  /// The connection each of the fuzzer's slots holds now; a slot gets a new one when it drops.
  var connections: [ConnectionID]
  var nextConnection: UInt64
  /// How many session tokens were handed out: "tok1", "tok2", ...
  let issued = Counter()
  var messageNumber = 0

  init(input: ByteReader) {
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
    let issued = self.issued
    let seeds = Mutex(SplitMix(state: 1))
    let codes = Mutex(SplitMix(state: 2))
    state = LobbyState(
      configuration: configuration,
      entropy: LobbyEntropy(
        seed: { seeds.withLock { $0.next() } },
        token: {
          issued.count.withLock {
            $0 += 1
            return "tok\($0)"
          }
        },
        below: { n in codes.withLock { Int($0.next() % UInt64(n)) } }))
    connections = (1...UInt64(Self.connectionCount)).map { ConnectionID($0) }
    nextConnection = UInt64(Self.connectionCount) + 1
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
      send(message(from: slot), from: slot)
    case 22..<24:
      send(input.take(input.below(48)), from: slot)
    case 24..<26:
      let connection = connections[slot]
      connections[slot] = newConnection()
      apply(state.disconnected(connection, now: now))
      catchUp()
    default:
      let steps: [Double] = [0, 0.1, 0.25, 0.5, 0.9, 1, 1.5, 2.5, 3, 3.5, 5, 6, 30, 61]
      let choice = input.byte()
      now += steps[Int(choice & 0x0F) % steps.count] + Double(choice >> 4) / 64
      // Mostly the timer fires at once; sometimes it is late and the next event comes first.
      if kind & 0x20 == 0 || kind & 0x1F == 31 {
        apply(state.advance(to: now))
      }
    }
  }

  mutating func newConnection() -> ConnectionID {
    defer { nextConnection += 1 }
    return ConnectionID(nextConnection)
  }

  /// What the shell does after each event: whatever came due meanwhile happens.
  mutating func catchUp() {
    if let due = state.nextDeadline(), due <= now {
      apply(state.advance(to: now))
    }
  }

  mutating func send(_ bytes: [UInt8], from slot: Int) {
    apply(state.receive(bytes, from: connections[slot], now: now))
    catchUp()
  }

  /// Carries the actions out as the shell would: a closed connection drops, and its slot gets a
  /// new one. Every frame must be JSON with a type.
  mutating func apply(_ actions: [LobbyAction]) {
    for action in actions {
      switch action {
      case .send(let frame, let recipients):
        precondition(!recipients.isEmpty, "a frame for nobody")
        // Parsing every frame would cost more than the rest of the run; the decoder target and
        // the unit tests check the encodings. Each frame is at least one typed JSON object.
        precondition(frame.payload.starts(with: Self.typePrefix), "a frame of no known type")
      case .close(let connection, _, _):
        guard let slot = connections.firstIndex(of: connection) else { continue }
        connections[slot] = newConnection()
        // The transport reports the closed connection gone, after the actions of this event.
        let more = state.disconnected(connection, now: now)
        apply(more)
      }
    }
  }

  // MARK: - Messages

  /// Whether a frame's payload starts as every server message does.
  static let typePrefix = Array(#"{"type":""#.utf8)

  /// A client message: a valid template with fuzzed fields, as JSON text.
  mutating func message(from slot: Int) -> [UInt8] {
    let choice = input.byte()
    var fields: [String]
    switch choice % 16 {
    case 0, 1:
      fields = [#""type":"hello""#]
      if let name = name() { fields.append(#""name":\#(name)"#) }
    case 2:
      fields = [#""type":"hello""#]
      let tokens = issued.count.withLock { $0 }
      let pick = input.below(tokens + 2)
      let token = pick < tokens ? "tok\(pick + 1)" : pick == tokens ? "tok0" : "!"
      fields.append(#""resume":"\#(token)""#)
      switch input.below(4) {
      case 0: break
      case 1: fields.append(#""version":\#(input.byte())"#)
      default:
        let version = knownTableVersion(token: token) ?? 0
        fields.append(#""version":\#(max(0, version - input.below(4)))"#)
      }
    case 3, 4:
      fields = [#""type":"quickMatch""#, game()]
      if choice & 0x80 != 0 { fields.append(#""seats":\#(input.below(10))"#) }
    case 5:
      fields = [
        #""type":"createTable""#, game(), #""seats":\#(input.below(10))"#,
        #""private":\#(choice & 0x80 != 0)"#,
      ]
    case 6:
      fields = [#""type":"playSolo""#, game()]
    case 7, 8:
      fields = [#""type":"join""#, tableReference()]
    case 9:
      fields = [#""type":"spectate""#, tableReference()]
    case 10:
      fields = [#""type":"leave""#]
    case 11:
      fields = [#""type":"start""#]
    case 12:
      fields = [#""type":"redeal""#]
    case 13:
      fields = [choice & 0x80 == 0 ? #""type":"resync""# : #""type":"lobby""#]
    default:
      fields = [#""type":"choose""#, #""card":\#(card(choice: choice, slot: slot))"#]
    }
    if let id = messageID() { fields.insert(#""id":\#(id)"#, at: input.below(fields.count + 1)) }
    return Array("{\(fields.joined(separator: ","))}".utf8)
  }

  /// The message id: absent, a number, a string, null, or one the decoder refuses.
  mutating func messageID() -> String? {
    messageNumber += 1
    switch input.below(8) {
    case 0: return nil
    case 1: return #""m\#(messageNumber)""#
    case 2: return "null"
    case 3: return #""\u0007""#
    default: return "\(messageNumber)"
    }
  }

  /// A name: ordinary, blank, at and over the limits, refused, or built from fuzzed bytes.
  mutating func name() -> String? {
    switch input.below(12) {
    case 0: return nil
    case 1: return "null"
    case 2: return #""Ada""#
    case 3: return #""   ""#
    case 4: return #"" Bo ""#
    case 5: return "\"\(String(repeating: "x", count: 24))\""
    case 6: return "\"\(String(repeating: "é", count: 25))\""
    case 7: return "\"\(String(repeating: "😀", count: 17))\""
    case 8: return #""evil\u202Eeman""#
    case 9: return "7"
    default:
      // Fuzzed bytes, each escaped or written as is when printable ASCII.
      var text = "\""
      for byte in input.take(input.below(30)) {
        switch byte {
        case 0x20...0x7E where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"):
          text.unicodeScalars.append(Unicode.Scalar(byte))
        default:
          let scalars: [UInt32] = [UInt32(byte), 0x2066, 0x00E9, 0x1F600, 0x0085, 0x00A0]
          let value = scalars[Int(byte) % scalars.count]
          if value > 0xFFFF {
            text += #"\ud83d\ude00"#
          } else {
            text +=
              "\\u" + String(repeating: "0", count: 4 - String(value, radix: 16).count)
              + String(value, radix: 16)
          }
        }
      }
      return text + "\""
    }
  }

  /// The game field: mostly the one the server deals.
  mutating func game() -> String {
    input.below(16) == 0 ? #""game":"chess""# : #""game":"set""#
  }

  /// A table by id or invite code: an open one, a closed or unknown one, or a malformed one.
  mutating func tableReference() -> String {
    let ids = state.tableIDs.sorted { ($0.count, $0) < ($1.count, $1) }
    let id = ids.isEmpty ? nil : ids[input.below(ids.count)]
    switch input.below(6) {
    case 0, 1: return #""table":"\#(id ?? "t1")""#
    case 2, 3:
      let code = id.flatMap { state.table($0)?.code } ?? "ABCD"
      // Invite codes are upper-cased by the decoder: a lower-case one must find the table too.
      return #""code":"\#(input.below(2) == 0 ? code : code.lowercased())""#
    case 4: return #""code":"ZZZZ""#
    default: return #""table":"t\#(input.byte())""#
    }
  }

  /// A card id: mostly one on the board of the sender's table, sometimes any number.
  mutating func card(choice: UInt8, slot: Int) -> Int {
    let pick = input.byte()
    if choice & 0x80 != 0 { return Int(pick) - 8 }
    guard let session = state.session(for: connections[slot]),
      let tableID = session.tableID, let table = state.table(tableID),
      case .array(let board)? = table.snapshot(replyTo: nil, you: session.seat, now: now)["table"]?[
        "board"]
    else { return Int(pick) % 81 }
    let ids = board.compactMap { card -> Int? in
      if case .int(let id)? = card["id"] { id } else { nil }
    }
    return ids.isEmpty ? Int(pick) % 81 : ids[Int(pick) % ids.count]
  }

  /// The version of the table the session with `token` is at, if any.
  func knownTableVersion(token: String) -> Int? {
    guard let session = state.sessions.first(where: { $0.token == token }),
      let tableID = session.tableID
    else { return nil }
    return state.table(tableID)?.version
  }

  // MARK: - Invariants

  /// What must hold after every event.
  func checkInvariants(step: Int) {
    let ids = Set(state.tableIDs)
    // No public listing without a table.
    for listing in state.tableDirectory.publicListings {
      precondition(ids.contains(listing.id), "step \(step): \(listing.id) is listed but closed")
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
        table.isPrivate || state.tableDirectory.entry(tableID) != nil,
        "step \(step): public \(tableID) is not in the directory")
      if let seat = session.seat {
        precondition(
          table.seat(of: session.token) == seat,
          "step \(step): \(session.token) thinks it sits in seat \(seat) at \(tableID)")
      }
    }
    for id in ids {
      guard let table = state.table(id) else { fatalError("step \(step): \(id) has no table") }
      var seats = Set<Int>()
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
          precondition(seats.insert(seat).inserted, "step \(step): two members in seat \(seat)")
          precondition(session.seat == seat, "step \(step): \(connection) in the wrong seat")
        case .spectator:
          spectators += 1
          precondition(session.seat == nil, "step \(step): a seated spectator")
        }
      }
      precondition(
        table.spectators == spectators,
        "step \(step): \(id) counts \(table.spectators) spectators, has \(spectators)")
    }
  }
}
