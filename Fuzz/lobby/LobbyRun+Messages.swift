import Lobby
import Protocol

/// The client messages a run writes: valid templates whose fields the fuzzer picks.
extension LobbyRun {
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
      field(choice & 0x80 == 0 ? #""type":"redeal""# : #""type":"hint""#)
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

  /// The game field: mostly Set, also its variants (Set Junior, UltraSet, Set-Chain),
  /// Matchismo and Concentration, now and then one the server does not deal.
  mutating func writeGame() {
    switch input.below(16) {
    case 0: field(#""game":"chess""#)
    case 1...6: field(#""game":"set""#)
    case 7: field(#""game":"setChain""#)
    case 8: field(#""game":"setJunior""#)
    case 9: field(#""game":"ultraSet""#)
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

  /// Board sizes Set, Set Junior, UltraSet, Matchismo or Concentration take, and some none
  /// takes.
  static let boardSizes = [8, 9, 12, 16, 20, 21, 24, 40, 6, 7, 13, 41]

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

  /// The version of the table the session with `token` is at, if any.
  func knownTableVersion(token: String) -> Int? {
    guard let session = state.sessions.first(where: { $0.token == token }),
      let tableID = session.tableID
    else { return nil }
    return state.table(tableID)?.version
  }
}
