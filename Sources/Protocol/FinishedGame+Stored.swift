import Foundation
import Model

extension FinishedGame {
  /// The game as a store keeps it: the JSON that `JSONEncoder` makes of it (`Codable`, and read
  /// back with `JSONDecoder`), written directly.
  ///
  /// Encoding a finished game of a hundred moves with `JSONEncoder` took a millisecond and a
  /// half of the journal's thread, most of it in the three nested containers of each move,
  /// while every table's frames waited behind that commit (docs/BENCHMARKS.md, "Play: what game
  /// ends cost"). Here the moves, players, settings and chat are written as text, with the same
  /// keys and values; a rating change, the one small part that only `Codable` describes, still
  /// goes through `encoder`. `StoredFinishedGameTests` decode what this writes and compare it
  /// with the game.
  public func storedJSON(encoder: JSONEncoder) throws -> String {
    var out = JSONWriter()
    out.raw(#"{"id":"#)
    out.string(id)
    out.raw(#","game":"#)
    out.string(game)
    out.raw(#","settings":"#)
    settings.writeStored(to: &out)
    out.raw(#","seed":"#)
    out.bytes += String(seed).utf8
    out.raw(#","showSelections":"#)
    out.bool(showSelections)
    out.raw(#","players":["#)
    try out.separated(players) { try $1.writeStored(to: &$0, encoder: encoder) }
    out.raw(#"],"moves":["#)
    out.separated(moves) { $1.writeStored(to: &$0) }
    out.raw(#"],"seconds":"#)
    out.double(seconds)
    out.raw(#","endedAt":"#)
    out.double(endedAt)
    out.raw(#","source":"#)
    out.string(source)
    if let chat {
      out.raw(#","chat":"#)
      ChatLine.writeStored(chat, to: &out)
    }
    if let rated {
      out.raw(#","rated":"#)
      out.bool(rated)
    }
    out.byte(UInt8(ascii: "}"))
    return String(decoding: out.bytes, as: UTF8.self)
  }
}

extension FinishedPlayer {
  /// The player as `Codable` writes it (``FinishedGame/storedJSON(encoder:)``).
  fileprivate func writeStored(to out: inout JSONWriter, encoder: JSONEncoder) throws {
    out.raw(#"{"seat":"#)
    out.int(seat)
    out.raw(#","name":"#)
    out.string(name)
    out.raw(#","score":"#)
    out.int(score)
    out.raw(#","matches":"#)
    out.int(matches)
    out.raw(#","mistakes":"#)
    out.int(mistakes)
    out.raw(#","rank":"#)
    out.int(rank)
    if let player {
      out.raw(#","player":"#)
      out.string(player)
    }
    if let rating {
      out.raw(#","rating":"#)
      out.bytes += try encoder.encode(rating)
    }
    if let bot {
      out.raw(#","bot":"#)
      out.string(bot)
    }
    out.byte(UInt8(ascii: "}"))
  }
}

extension FinishedMove {
  /// The move as `Codable` writes it: `{"move":{"choose":{"seat":0,"card":12}},"at":1.5}`.
  fileprivate func writeStored(to out: inout JSONWriter) {
    switch move {
    case .choose(let seat, let card):
      out.raw(#"{"move":{"choose":{"seat":"#)
      out.int(seat)
      out.raw(#","card":"#)
      out.int(card)
    case .redeal(let seat):
      out.raw(#"{"move":{"redeal":{"seat":"#)
      out.int(seat)
    case .pass(let seat):
      out.raw(#"{"move":{"pass":{"seat":"#)
      out.int(seat)
    }
    out.raw(#"}},"at":"#)
    out.double(at)
    out.byte(UInt8(ascii: "}"))
  }
}
