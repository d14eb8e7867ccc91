import Protocol

extension TableRecord {
  /// The record as a store keeps it: the JSON that `JSONEncoder` makes of it (`Codable`, and
  /// read back with `JSONDecoder`), written directly.
  ///
  /// The journal writes a table's record at every seat change, deal and game end; with
  /// `JSONEncoder` each took about 195,000 instructions of the journal's thread, written here
  /// 15,000, and with the finished games' settings and chat the writer's work in fast play fell
  /// by a third (callgrind, docs/BENCHMARKS.md). `StoredRecordTests` check that `JSONEncoder`
  /// writes the same object, with every optional part present and absent.
  public func storedJSON() -> String {
    var out = JSONWriter()
    out.bytes.reserveCapacity(512)
    out.raw(#"{"id":"#)
    out.string(id)
    out.raw(#","game":"#)
    out.string(game)
    out.raw(#","settings":"#)
    settings.writeStored(to: &out)
    out.raw(#","code":"#)
    out.string(code)
    out.raw(#","isPrivate":"#)
    out.bool(isPrivate)
    out.raw(#","showSelections":"#)
    out.bool(showSelections)
    if let turnSeconds {
      out.raw(#","turnSeconds":"#)
      out.double(turnSeconds)
    }
    out.raw(#","phase":"#)
    out.string(phase)
    if let host {
      out.raw(#","host":"#)
      out.int(host)
    }
    out.raw(#","seats":["#)
    out.separated(seats) { out, seat in
      if let seat { seat.writeStored(to: &out) } else { out.raw("null") }
    }
    out.raw(#"],"names":["#)
    out.separated(names) { $0.string($1) }
    out.raw(#"],"everSeated":"#)
    out.ints(everSeated)
    out.raw(#","votes":"#)
    out.ints(votes)
    out.raw(#","version":"#)
    out.int(version)
    out.raw(#","deal":"#)
    out.int(deal)
    out.raw(#","dealSeed":"#)
    out.bytes += String(dealSeed).utf8
    out.raw(#","creator":"#)
    out.string(creator)
    out.raw(#","solo":"#)
    out.bool(solo)
    if let chat {
      out.raw(#","chat":"#)
      ChatLine.writeStored(chat, to: &out)
    }
    if let daily {
      out.raw(#","daily":"#)
      out.string(daily)
    }
    if let playedBy {
      out.raw(#","playedBy":{"#)
      out.separated(playedBy) { out, pair in
        out.string(pair.key)
        out.byte(UInt8(ascii: ":"))
        out.string(pair.value)
      }
      out.byte(UInt8(ascii: "}"))
    }
    if let offerComputer {
      out.raw(#","offerComputer":"#)
      out.double(offerComputer)
    }
    if let sprint {
      out.raw(#","sprint":"#)
      sprint.writeStored(to: &out)
    }
    out.byte(UInt8(ascii: "}"))
    return String(decoding: out.bytes, as: UTF8.self)
  }
}

extension SeatRecord {
  /// The seat as `Codable` writes it (``TableRecord/storedJSON()``).
  fileprivate func writeStored(to out: inout JSONWriter) {
    out.raw(#"{"name":"#)
    out.string(name)
    out.raw(#","token":"#)
    out.string(token)
    if let player {
      out.raw(#","player":"#)
      out.string(player)
    }
    if let bot {
      out.raw(#","bot":"#)
      out.string(bot)
    }
    out.byte(UInt8(ascii: "}"))
  }
}

extension ArenaSprint {
  /// The sprint as `Codable` writes it (``TableRecord/storedJSON()``).
  fileprivate func writeStored(to out: inout JSONWriter) {
    out.raw(#"{"arena":"#)
    out.string(arena)
    out.raw(#","name":"#)
    out.string(name)
    out.raw(#","sets":"#)
    out.int(sets)
    out.raw(#","seconds":"#)
    out.double(seconds)
    out.byte(UInt8(ascii: "}"))
  }
}
