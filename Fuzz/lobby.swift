// fuzz-modules: Model Protocol Lobby
// fuzz-coverage: edges
// fuzz-max-len: 64
import Lobby
import Model
import Protocol
import Synchronization

/// libFuzzer's entry point: plays the input as a sequence of events against one `LobbyState`
/// (client messages from a few connections, disconnects, time moving on) and checks the lobby's
/// invariants after every event. A broken invariant stops the run with a crash report and the
/// input that led to it.
///
/// Everything the harness does per event is kept cheap, because under AddressSanitizer and the
/// fuzzer's instrumentation it is paid on every one of the events of every input: messages are
/// written as bytes into reused buffers, cards are read off the table's game rather than out of
/// an encoded snapshot, frames are checked in place without copying them, and the checks build
/// no sets. The target is built with edge coverage only (`fuzz-coverage: edges`): its bytes
/// pick events and template fields, so tracing every comparison of the lobby, the encoder and
/// the harness (a third of the time per input) gave libFuzzer little it could use; the decoder
/// target, whose bytes are the frames themselves, keeps comparison tracing.
///
/// Even so, one event costs about 30 µs under AddressSanitizer, nearly all of it in the lobby
/// (encoding frames, dealing tables), so the time per input is the number of events it plays.
/// Inputs are at most 64 bytes (`fuzz-max-len`). A message takes 4 to 6 bytes, a move 5, a
/// clock step 2 and a disconnect 1, so 64 bytes hold about a dozen events: enough for three
/// players at two tables (a quick match and a solo game), a join or a resume, a disconnect and
/// a few moves in between; 48 bytes held barely one two-seat game and its first moves. With 8192
/// bytes libFuzzer grew its inputs to the 200-event cap, and an input cost a hundred times more.
///
/// The first byte picks how the lobby is run, as the server can run it: one state that decides
/// every message itself (the inline lobby), or tables spread over 1, 2 or 3 shards with every
/// seated player's move decided on its table's shard alone, as the sharded executors decide it
/// (``LobbyState/choose(_:replyTo:from:shard:)``); a turn-based table's moves (Concentration)
/// stay with the whole state, as on the server. Tables are opened for Set, Matchismo,
/// Concentration or a game the server does not deal, with or without fuzzed table settings.
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

  /// Up to `count` raw bytes, as a range of ``bytes``.
  mutating func takeRange(_ count: Int) -> Range<Int> {
    let start = min(bytes.count, offset)
    let end = min(bytes.count, offset + count)
    offset = max(offset, end)
    return start..<end
  }

  /// Up to `count` raw bytes.
  mutating func take(_ count: Int) -> [UInt8] {
    let range = takeRange(count)
    return range.isEmpty ? [] : Array(bytes[range])
  }

  /// The bytes in `range` (from ``takeRange(_:)``).
  subscript(range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }
}

/// How many session tokens a run's entropy handed out (shared with its `token` closure).
final class Counter: Sendable {
  let count = Mutex(0)
}

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
    let mode = input.below(4)
    movesOnShards = mode > 0
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
    let seeds = Mutex(SplitMix64(seed: 1))
    let codes = Mutex(SplitMix64(seed: 2))
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
        below: { n in codes.withLock { Int($0.next() % UInt64(n)) } }),
      shards: max(1, mode))
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
    if let due = state.nextDeadline(), due <= now {
      apply(state.advance(to: now))
    }
  }

  mutating func send(_ bytes: [UInt8], from slot: Int) {
    let connection = connections[slot]
    let decoded = ClientMessageDecoder.decode(bytes)
    // As a sharded executor does: a seated player's move needs only its table's shard.
    if movesOnShards, case .success(let envelope) = decoded,
      case .choose(let card) = envelope.message, let shard = state.playingShard(of: connection)
    {
      let before = state.movesAccepted
      let (actions, accepted) = state.choose(
        card, replyTo: envelope.id, from: connection, shard: shard, now: now)
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
      case .send(let frame, let recipients), .sendAtOnce(let frame, let recipients):
        precondition(!recipients.isEmpty, "a frame for nobody")
        frame.withWireBuffer { payload, count in
          FrameCheck.check(UnsafeBufferPointer(start: payload, count: count))
        }
      case .close(let connection, _, _):
        guard let slot = connections.firstIndex(of: connection) else { continue }
        connections[slot] = newConnection()
        // The transport reports the closed connection gone, after the actions of this event.
        let more = state.disconnected(connection, now: now)
        apply(more)
      case .journal, .query:
        // The fuzzed lobby does not journal, so it keeps no records to ask about either.
        preconditionFailure("a journal entry or query from a lobby that does not journal")
      }
    }
  }

  // MARK: - Messages

  /// Writes a client message into ``text``: a valid template with fuzzed fields, as JSON.
  mutating func writeMessage(from slot: Int) {
    text.removeAll(keepingCapacity: true)
    fieldStarts.removeAll(keepingCapacity: true)
    text.append(UInt8(ascii: "{"))
    let choice = input.byte()
    switch choice % 16 {
    case 0, 1:
      field(#""type":"hello""#)
      beginField()
      if !writeNameField() { dropField() }
    case 2:
      field(#""type":"hello""#)
      let tokens = issued.count.withLock { $0 }
      let pick = input.below(tokens + 2)
      beginField()
      write(#""resume":""#)
      // The token written, as the lobby knows it (for the version of its table).
      let token: String
      if pick < tokens {
        token = "tok\(pick + 1)"
      } else {
        token = pick == tokens ? "tok0" : "!"
      }
      write(token)
      text.append(UInt8(ascii: "\""))
      switch input.below(4) {
      case 0: break
      case 1:
        beginField()
        write(#""version":"#)
        writeNumber(Int(input.byte()))
      default:
        let version = knownTableVersion(token: token) ?? 0
        beginField()
        write(#""version":"#)
        writeNumber(max(0, version - input.below(4)))
      }
    case 3, 4:
      field(#""type":"quickMatch""#)
      writeGame()
      if choice & 0x80 != 0 {
        beginField()
        write(#""seats":"#)
        writeNumber(input.below(10))
      }
    case 5:
      field(#""type":"createTable""#)
      writeGame()
      beginField()
      write(#""seats":"#)
      writeNumber(input.below(10))
      field(choice & 0x80 != 0 ? #""private":true"# : #""private":false"#)
      if choice & 0x40 != 0 { writeOptions() }
    case 6:
      field(#""type":"playSolo""#)
      writeGame()
      if choice & 0x40 != 0 { writeOptions() }
    case 7, 8:
      field(#""type":"join""#)
      writeTableReference()
    case 9:
      field(#""type":"spectate""#)
      writeTableReference()
    case 10:
      field(#""type":"leave""#)
    case 11:
      field(#""type":"start""#)
    case 12:
      field(#""type":"redeal""#)
    case 13:
      field(choice & 0x80 == 0 ? #""type":"resync""# : #""type":"lobby""#)
    default:
      field(#""type":"choose""#)
      beginField()
      write(#""card":"#)
      writeNumber(card(choice: choice, slot: slot))
    }
    if writeMessageID() {
      // The id goes before the field at this index, or after the last one.
      let index = input.below(fieldStarts.count + 1)
      if index < fieldStarts.count {
        idText.append(UInt8(ascii: ","))
        text.insert(contentsOf: idText, at: fieldStarts[index])
      } else {
        text.append(UInt8(ascii: ","))
        text.append(contentsOf: idText)
      }
    }
    text.append(UInt8(ascii: "}"))
  }

  /// Starts a field: a comma unless it is the first.
  mutating func beginField() {
    if !fieldStarts.isEmpty { text.append(UInt8(ascii: ",")) }
    fieldStarts.append(text.count)
  }

  /// Takes back the field just begun (and its comma): it turned out to be absent.
  mutating func dropField() {
    let start = fieldStarts.removeLast()
    text.removeSubrange((fieldStarts.isEmpty ? start : start - 1)...)
  }

  /// A whole field.
  mutating func field(_ member: StaticString) {
    beginField()
    write(member)
  }

  mutating func write(_ literal: StaticString) {
    text.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  mutating func write(_ string: String) {
    text.append(contentsOf: string.utf8)
  }

  mutating func writeNumber(_ value: Int) {
    Self.writeDecimal(value, to: &text)
  }

  /// Appends the decimal digits of `value`, as `"\(value)"` would write them.
  static func writeDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var divisor: UInt = 1
    while magnitude / divisor >= 10 { divisor *= 10 }
    while divisor > 0 {
      out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
      magnitude %= divisor
      divisor /= 10
    }
  }

  /// Writes the message id member into ``idText`` and returns true, or false when absent: a
  /// number, a string, null, or one the decoder refuses.
  mutating func writeMessageID() -> Bool {
    messageNumber += 1
    idText.removeAll(keepingCapacity: true)
    let prefix: StaticString = #""id":"#
    idText.append(
      contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
    switch input.below(8) {
    case 0: return false
    case 1:
      idText.append(contentsOf: #""m"#.utf8)
      Self.writeDecimal(messageNumber, to: &idText)
      idText.append(UInt8(ascii: "\""))
    case 2: idText.append(contentsOf: "null".utf8)
    case 3: idText.append(contentsOf: #""\u0007""#.utf8)
    default: Self.writeDecimal(messageNumber, to: &idText)
    }
    return true
  }

  /// Names that stand for one case each: ordinary, blank, at and over the limits, refused.
  static let fixedNames: [[UInt8]] = [
    Array("null".utf8),
    Array(#""Ada""#.utf8),
    Array(#""   ""#.utf8),
    Array(#"" Bo ""#.utf8),
    Array("\"\(String(repeating: "x", count: 24))\"".utf8),
    Array("\"\(String(repeating: "é", count: 25))\"".utf8),
    Array("\"\(String(repeating: "😀", count: 17))\"".utf8),
    Array(#""evil\u202Eeman""#.utf8),
    Array("7".utf8),
  ]

  /// What a fuzzed byte that is not plain printable ASCII stands for in a name, picked by its
  /// value: the first entry, 0, stands for the byte itself.
  static let nameScalars: [UInt32] = [0, 0x2066, 0x00E9, 0x1F600, 0x0085, 0x00A0]

  static let hexDigits = Array("0123456789abcdef".utf8)

  /// Writes the `name` member of a hello, or returns false when it has none: one of the
  /// ``fixedNames`` or a string built from fuzzed bytes.
  mutating func writeNameField() -> Bool {
    let pick = input.below(12)
    if pick == 0 { return false }
    write(#""name":"#)
    if pick <= Self.fixedNames.count {
      text.append(contentsOf: Self.fixedNames[pick - 1])
      return true
    }
    // Fuzzed bytes, each escaped or written as is when printable ASCII.
    text.append(UInt8(ascii: "\""))
    let range = input.takeRange(input.below(30))
    for byte in input[range] {
      switch byte {
      case 0x20...0x7E where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"):
        text.append(byte)
      default:
        let index = Int(byte) % Self.nameScalars.count
        let value = index == 0 ? UInt32(byte) : Self.nameScalars[index]
        if value > 0xFFFF {
          text.append(contentsOf: #"\ud83d\ude00"#.utf8)
        } else {
          text.append(UInt8(ascii: "\\"))
          text.append(UInt8(ascii: "u"))
          for shift in stride(from: 12, through: 0, by: -4) {
            text.append(Self.hexDigits[Int((value >> UInt32(shift)) & 0xF)])
          }
        }
      }
    }
    text.append(UInt8(ascii: "\""))
    return true
  }

  /// The game field: mostly Set, also Matchismo and Concentration, now and then one the server
  /// does not deal.
  mutating func writeGame() {
    switch input.below(16) {
    case 0: field(#""game":"chess""#)
    case 1...9: field(#""game":"set""#)
    case 10...12: field(#""game":"matchismo""#)
    default: field(#""game":"concentration""#)
    }
  }

  /// Table settings (`createTable`, `playSolo`): the fields a byte's bits pick, each with a value
  /// that some game accepts or none does, so that both the settings each game takes and the
  /// refusals (`badSettings`) are reached. Turns of 5 and 6 seconds let the clock pass a turn.
  mutating func writeOptions() {
    let fields = input.byte()
    if fields & 0x01 != 0 { numberField(#""boardSize":"#, Self.boardSizes) }
    if fields & 0x02 != 0 { numberField(#""matchSize":"#, [2, 3, 4, 0]) }
    if fields & 0x04 != 0 {
      beginField()
      write(#""scoring":"#)
      text.append(contentsOf: Self.scorings[input.below(Self.scorings.count)])
    }
    if fields & 0x08 != 0 { numberField(#""costToChoose":"#, [0, 1, 2, 1000]) }
    if fields & 0x10 != 0 { numberField(#""mismatchPenalty":"#, [0, 1, 2, 3]) }
    if fields & 0x20 != 0 { numberField(#""matchBonus":"#, [1, 4, 0, 9]) }
    if fields & 0x40 != 0 { numberField(#""turnSeconds":"#, [5, 6, 0, 30, 4, 301]) }
    if fields & 0x80 != 0 { numberField(#""theme":"#, [0, 1, 2, 3, 9]) }
  }

  /// Board sizes Set, Matchismo or Concentration take, and some none takes.
  static let boardSizes = [8, 9, 12, 16, 20, 21, 24, 40, 7, 13, 41]

  static let scorings: [[UInt8]] = [
    #""classic""#, #""course""#, #""custom""#, #""x""#,
  ].map { Array($0.utf8) }

  /// A field whose value is one of `values`, picked by the next byte.
  mutating func numberField(_ name: StaticString, _ values: [Int]) {
    beginField()
    write(name)
    writeNumber(values[input.below(values.count)])
  }

  /// A table by id or invite code: an open one, a closed or unknown one, or a malformed one.
  mutating func writeTableReference() {
    beginField()
    var ids = state.tableIDs
    // Oldest first: ids are "t" and a number that grows.
    ids.sort { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
    let id = ids.isEmpty ? nil : ids[input.below(ids.count)]
    switch input.below(6) {
    case 0, 1:
      write(#""table":""#)
      write(id ?? "t1")
      text.append(UInt8(ascii: "\""))
    case 2, 3:
      let code = id.flatMap { state.table($0)?.code } ?? "ABCD"
      // Invite codes are upper-cased by the decoder: a lower-case one must find the table too.
      let lower = input.below(2) != 0
      write(#""code":""#)
      for byte in code.utf8 {
        text.append(lower && (0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
      }
      text.append(UInt8(ascii: "\""))
    case 4: write(#""code":"ZZZZ""#)
    default:
      write(#""table":"t"#)
      writeNumber(Int(input.byte()))
      text.append(UInt8(ascii: "\""))
    }
  }

  /// A card id: mostly one on the board of the sender's table, sometimes any number. With
  /// `choice & 0x40`, a card on the board that makes a set with what the sender has selected
  /// (or starts one), when there is one: a match then takes three events rather than a search,
  /// so that short inputs still get games to where matches and new deals happen.
  mutating func card(choice: UInt8, slot: Int) -> Int {
    let pick = input.byte()
    if choice & 0x80 != 0 { return Int(pick) - 8 }
    guard let session = state.session(for: connections[slot]),
      let tableID = session.tableID, let table = state.table(tableID)
    else { return Int(pick) % 81 }
    // The cards a snapshot of the table shows, in its order: the board once the game is
    // dealt, none before. Read off the game; another game's table is asked for a snapshot.
    if let table = table as? TableState<SetCard> {
      let board = table.game.board
      guard table.phase == .playing || table.phase == .finished, !board.isEmpty else {
        return Int(pick) % 81
      }
      if choice & 0x40 != 0 {
        let selection = session.seat.map { table.game.players[$0].selection } ?? []
        if let id = Self.cardTowardSet(board: board, selection: selection, from: Int(pick)) {
          return id
        }
      }
      return board[Int(pick) % board.count].id
    }
    guard
      case .array(let cards)? = table.snapshot(replyTo: nil, you: session.seat, now: now)[
        "table"]?["board"]
    else { return Int(pick) % 81 }
    let ids = cards.compactMap { card -> Int? in
      if case .int(let id)? = card["id"] { id } else { nil }
    }
    return ids.isEmpty ? Int(pick) % 81 : ids[Int(pick) % ids.count]
  }

  /// A card of `board` that can still make a set with `selection`: the third when two are
  /// selected, one that makes a set on the board with a selected card, or with none selected the
  /// first card of a set. The board is searched from index `start` on, round; nil when no set
  /// can be made.
  static func cardTowardSet(board: [SetCard], selection: [Int], from start: Int) -> Int? {
    // The board as 81 bits, to look cards up without building anything.
    var onBoard: (low: UInt64, high: UInt64) = (0, 0)
    for card in board {
      if card.id < 64 {
        onBoard.low |= 1 << UInt64(card.id)
      } else {
        onBoard.high |= 1 << UInt64(card.id - 64)
      }
    }
    func isOnBoard(_ id: Int) -> Bool {
      id < 64 ? onBoard.low >> UInt64(id) & 1 == 1 : onBoard.high >> UInt64(id - 64) & 1 == 1
    }
    let count = board.count
    switch selection.count {
    case 2:
      let third = SetCard.thirdCard(SetCard.fullDeck[selection[0]], SetCard.fullDeck[selection[1]])
        .id
      return isOnBoard(third) ? third : nil
    case 1:
      let selected = SetCard.fullDeck[selection[0]]
      for offset in 0..<count {
        let card = board[(start + offset) % count]
        if card.id != selected.id && isOnBoard(SetCard.thirdCard(selected, card).id) {
          return card.id
        }
      }
      return nil
    case 0:
      for offset in 0..<count {
        let first = board[(start + offset) % count]
        for card in board where card.id != first.id && isOnBoard(SetCard.thirdCard(first, card).id)
        {
          return first.id
        }
      }
      return nil
    default:
      return nil
    }
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
    let directory = state.tableDirectory
    // No public listing without a table.
    for listing in directory.publicListings {
      precondition(
        state.table(listing.id) != nil, "step \(step): \(listing.id) is listed but closed")
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
        table.isPrivate || directory.entry(tableID) != nil,
        "step \(step): public \(tableID) is not in the directory")
      if let seat = session.seat {
        precondition(
          table.seat(of: session.token) == seat,
          "step \(step): \(session.token) thinks it sits in seat \(seat) at \(tableID)")
      }
    }
    let shardCount = state.shardCount
    for id in state.tableIDs {
      guard let table = state.table(id) else { fatalError("step \(step): \(id) has no table") }
      // Table "tN" is in shard N % shardCount: its players' moves are decided there, unless
      // it is turn-based (a move then sets the turn clock, which needs the whole state).
      let shard = table.isTurnBased ? nil : Int(id.dropFirst()).map { $0 % shardCount }
      // Seats 0..<64 as bits (the decoder allows 1...8 seats); any other in a set.
      var seats: UInt64 = 0
      var otherSeats = Set<Int>()
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
          let first: Bool
          if (0..<64).contains(seat) {
            first = seats & (1 << UInt64(seat)) == 0
            seats |= 1 << UInt64(seat)
          } else {
            first = otherSeats.insert(seat).inserted
          }
          precondition(first, "step \(step): two members in seat \(seat)")
          precondition(session.seat == seat, "step \(step): \(connection) in the wrong seat")
          precondition(
            state.playingShard(of: connection) == shard,
            "step \(step): \(connection) plays at \(id) on the wrong shard (or none)")
        case .spectator:
          spectators += 1
          precondition(session.seat == nil, "step \(step): a seated spectator")
          precondition(
            state.playingShard(of: connection) == nil, "step \(step): a spectator with a shard")
        }
      }
      precondition(
        table.spectators == spectators,
        "step \(step): \(id) counts \(table.spectators) spectators, has \(spectators)")
    }
  }
}

/// The check every frame the lobby sends must pass: one JSON object (RFC 8259: strings with
/// valid escapes and UTF-8, numbers without leading zeros, nothing after the object) whose first
/// member is `"type"` with the name of a server message. It reads the payload in place, in one
/// loop, and allocates nothing, so it can afford every frame of every event.
enum FrameCheck {
  /// Every message type the server sends.
  static let types: [[UInt8]] = [
    "welcome", "snapshot", "diff", "error", "left", "lobbySnapshot", "lobbyDiff",
  ].map { Array($0.utf8) }

  /// How every frame starts.
  static let prefix = Array(#"{"type":""#.utf8)

  /// Nesting deeper than this is refused (the deepest message nests 5 levels).
  static let maxDepth = 16

  /// Stops the run unless `payload` is a typed JSON object.
  static func check(_ payload: UnsafeBufferPointer<UInt8>) {
    do {
      try validate(payload)
    } catch {
      fatalError(
        "a frame that is not a typed JSON object (\(error.what) at byte \(error.offset)): "
          + String(decoding: payload, as: UTF8.self))
    }
  }

  /// Why a payload is not a typed JSON object, and where.
  struct FrameError: Error {
    let what: String
    let offset: Int

    init(_ what: String, at offset: Int) {
      self.what = what
      self.offset = offset
    }
  }

  /// Throws unless `p` is one JSON object whose first member is a known `type`.
  static func validate(_ p: UnsafeBufferPointer<UInt8>) throws(FrameError) {
    let n = p.count
    guard n > prefix.count, p.starts(with: prefix) else {
      throw FrameError("no type first", at: 0)
    }
    // The type's name, then the rest of the top-level object.
    var i = try string(p, from: prefix.count - 1)
    let name = UnsafeBufferPointer(rebasing: p[prefix.count..<(i - 1)])
    guard types.contains(where: { $0.elementsEqual(name) }) else {
      throw FrameError("an unknown type", at: prefix.count)
    }
    // One bit per open container, innermost lowest: 1 for an object, 0 for an array.
    var objects: UInt64 = 1
    var depth = 1
    var needValue = false
    while true {
      i = space(p, from: i)
      guard i < n else { throw FrameError("the end inside a container", at: i) }
      let byte = p[i]
      if needValue {
        needValue = false
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          guard depth < maxDepth else { throw FrameError("nesting too deep", at: i) }
          let isObject = byte == UInt8(ascii: "{")
          depth += 1
          objects = objects << 1 | (isObject ? 1 : 0)
          i = space(p, from: i + 1)
          let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
          if i < n && p[i] == close {
            // Empty: the container is a whole value.
            i += 1
            depth -= 1
            objects >>= 1
          } else if isObject {
            i = space(p, from: try string(p, from: i))
            guard i < n && p[i] == UInt8(ascii: ":") else { throw FrameError("no ':'", at: i) }
            i += 1
            needValue = true
          } else {
            needValue = true
          }
        case UInt8(ascii: "\""): i = try string(p, from: i)
        case UInt8(ascii: "t"): i = try literal(p, from: i, "true")
        case UInt8(ascii: "f"): i = try literal(p, from: i, "false")
        case UInt8(ascii: "n"): i = try literal(p, from: i, "null")
        default: i = try number(p, from: i)
        }
        continue
      }
      // After a value: a comma and the next member or item, or the container's end.
      i += 1
      let inObject = objects & 1 == 1
      if byte == UInt8(ascii: ",") {
        if inObject {
          i = space(p, from: try string(p, from: space(p, from: i)))
          guard i < n && p[i] == UInt8(ascii: ":") else { throw FrameError("no ':'", at: i) }
          i += 1
        }
        needValue = true
      } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
        depth -= 1
        objects >>= 1
        if depth == 0 {
          guard space(p, from: i) == n else { throw FrameError("bytes after the object", at: i) }
          return
        }
      } else {
        throw FrameError("neither ',' nor the container's end", at: i - 1)
      }
    }
  }

  /// The offset of the first byte from `start` on that is not JSON whitespace.
  static func space(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    while i < p.count && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09) {
      i += 1
    }
    return i
  }

  /// The offset after the string that starts with the quote at `start`.
  static func string(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int
  ) throws(FrameError) -> Int {
    let n = p.count
    guard start < n && p[start] == UInt8(ascii: "\"") else {
      throw FrameError("no string", at: start)
    }
    var i = start + 1
    while i < n {
      let byte = p[i]
      i += 1
      if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): return i
      case UInt8(ascii: "\\"):
        guard i < n else { throw FrameError("an open escape", at: i) }
        let escaped = p[i]
        i += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          break
        case UInt8(ascii: "u"):
          let unit = try hex4(p, at: i)
          i += 4
          if (0xD800..<0xDC00).contains(unit) {
            // A high surrogate must be followed by an escaped low one.
            guard i + 1 < n && p[i] == UInt8(ascii: "\\") && p[i + 1] == UInt8(ascii: "u"),
              (0xDC00..<0xE000).contains(try hex4(p, at: i + 2))
            else { throw FrameError("a lone high surrogate", at: i) }
            i += 6
          } else if (0xDC00..<0xE000).contains(unit) {
            throw FrameError("a lone low surrogate", at: i)
          }
        default: throw FrameError("a bad escape", at: i - 1)
        }
      case 0..<0x20: throw FrameError("a raw control character", at: i - 1)
      default: i = try utf8Sequence(p, lead: byte, at: i)
      }
    }
    throw FrameError("an open string", at: start)
  }

  /// The four hex digits of a `\u` escape at `offset`.
  static func hex4(
    _ p: UnsafeBufferPointer<UInt8>, at offset: Int
  ) throws(FrameError) -> UInt32 {
    guard offset + 4 <= p.count else { throw FrameError("a short \\u escape", at: offset) }
    var value: UInt32 = 0
    for byte in p[offset..<(offset + 4)] {
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw FrameError("a bad \\u escape", at: offset)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The offset after the rest of a UTF-8 sequence whose lead byte is before `offset`:
  /// shortest form, no surrogates, nothing above U+10FFFF.
  static func utf8Sequence(
    _ p: UnsafeBufferPointer<UInt8>, lead: UInt8, at offset: Int
  ) throws(FrameError) -> Int {
    let count: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: count = 1
    case 0xE0:
      count = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: count = 2
    case 0xED:
      count = 2
      upper = 0x9F
    case 0xF0:
      count = 3
      lower = 0x90
    case 0xF1...0xF3: count = 3
    case 0xF4:
      count = 3
      upper = 0x8F
    default: throw FrameError("bad UTF-8", at: offset - 1)
    }
    guard offset + count <= p.count, (lower...upper).contains(p[offset]) else {
      throw FrameError("bad UTF-8", at: offset)
    }
    for index in (offset + 1)..<(offset + count) where !(0x80...0xBF).contains(p[index]) {
      throw FrameError("bad UTF-8", at: index)
    }
    return offset + count
  }

  /// The offset after the literal `word` at `start`.
  static func literal(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int, _ word: StaticString,
  ) throws(FrameError) -> Int {
    let count = word.utf8CodeUnitCount
    guard start + count <= p.count,
      UnsafeBufferPointer(rebasing: p[start..<(start + count)]).elementsEqual(
        UnsafeBufferPointer(start: word.utf8Start, count: count))
    else { throw FrameError("a bad literal", at: start) }
    return start + count
  }

  /// The offset after the number at `start`: `-`, digits without a leading zero, then an
  /// optional fraction and exponent.
  static func number(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int
  ) throws(FrameError) -> Int {
    let n = p.count
    var i = start
    func digits() -> Int {
      let first = i
      while i < n && p[i] >= 0x30 && p[i] <= 0x39 { i += 1 }
      return i - first
    }
    if i < n && p[i] == UInt8(ascii: "-") { i += 1 }
    if i < n && p[i] == UInt8(ascii: "0") {
      i += 1
    } else if digits() == 0 {
      throw FrameError("not a value", at: start)
    }
    if i < n && p[i] == UInt8(ascii: ".") {
      i += 1
      guard digits() > 0 else { throw FrameError("a fraction without digits", at: i) }
    }
    if i < n && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
      i += 1
      if i < n && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) { i += 1 }
      guard digits() > 0 else { throw FrameError("an exponent without digits", at: i) }
    }
    return i
  }
}
