// fuzz-modules: Model Protocol
import Protocol

/// libFuzzer's entry point: feeds one input to the client-message decoder and checks what can
/// be said of any answer. A broken invariant stops the run with a crash report and the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func decoderFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  switch ClientMessageDecoder.decode(bytes) {
  case .success(let envelope):
    checkLimits(envelope)
    // Whatever was accepted encodes to a frame that decodes to the same envelope, and
    // encoding that gives the same bytes again: nothing is lost or changed by a round trip.
    let encoded = envelope.json.encoded
    guard case .success(let again) = ClientMessageDecoder.decode(encoded) else {
      fatalError("re-encoded envelope is refused: \(String(decoding: encoded, as: UTF8.self))")
    }
    precondition(again == envelope, "round trip changed \(envelope) into \(again)")
    precondition(again.json.encoded == encoded, "second encoding differs for \(envelope)")
  case .failure(let error):
    precondition(!error.message.isEmpty, "an error without a message")
    // A frame that is not JSON has no id that could be read.
    precondition(error.code != .badJSON || error.replyTo == nil, "badJSON with a replyTo")
  }
  return 0
}

/// Every string the decoder lets through is within its limits and free of refused characters.
private func checkLimits(_ envelope: ClientEnvelope) {
  if case .string(let id)? = envelope.id {
    precondition(id.utf8.count <= ClientMessageDecoder.maxIDLength, "id too long")
    precondition(!id.unicodeScalars.contains(where: ClientMessageDecoder.isRefused), "id chars")
  }
  switch envelope.message {
  case .hello(let name, let resume, let version, let player, let games):
    if let name {
      precondition(!name.isEmpty, "empty name")
      precondition(name.unicodeScalars.count <= ClientMessageDecoder.maxNameLength, "name")
      precondition(name.utf8.count <= ClientMessageDecoder.maxNameBytes, "name bytes")
      precondition(!name.unicodeScalars.contains(where: ClientMessageDecoder.isRefused), "name")
      precondition(name.unicodeScalars.first?.properties.isWhitespace == false, "untrimmed")
      precondition(name.unicodeScalars.last?.properties.isWhitespace == false, "untrimmed")
    }
    if let resume { precondition(resume.utf8.count <= ClientMessageDecoder.maxTokenLength) }
    if let version { precondition(version >= 0, "negative version") }
    if let player {
      precondition(ClientMessageDecoder.playerTokenLengths.contains(player.utf8.count), "player")
    }
    if case .unlessVersion(let held) = games {
      precondition(held.utf8.count <= GamesWanted.maxVersionBytes, "games version")
    }
  case .scores(let query):
    precondition(ScoresQuery.pageSizes.contains(query.pageSize), "page size")
    precondition(query.page >= 0, "negative page")
    if let list = query.list {
      precondition(ScoreList(id: list.id) == list, "a list that does not read back")
    }
  case .record(let id):
    precondition(id.utf8.count <= ClientMessageDecoder.maxRecordIDBytes, "record id")
  case .chat(let text):
    precondition(!text.isEmpty, "empty line")
    precondition(text.unicodeScalars.count <= ClientMessageDecoder.maxChatLength, "long line")
    precondition(!text.unicodeScalars.contains(where: ClientMessageDecoder.isRefused), "line")
    precondition(text.unicodeScalars.first?.properties.isWhitespace == false, "untrimmed")
    precondition(text.unicodeScalars.last?.properties.isWhitespace == false, "untrimmed")
  case .quickMatch(_, let seats, _), .createTable(_, let seats, _, _):
    precondition(ClientMessageDecoder.seatRange.contains(seats), "seats out of range")
  case .join(.code(let code)), .spectate(.code(let code)):
    precondition(code.utf8.count <= ClientMessageDecoder.maxCodeBytes, "code too long")
  default:
    break
  }
}
