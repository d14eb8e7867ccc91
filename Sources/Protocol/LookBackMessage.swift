import Model

extension ServerMessage {
  /// A game's look back as a `lookBack` event and a `record` answer carry it (PROTOCOL.md, "The
  /// look back"): every match made (`found`: seat, cards, `at` and `seconds` it had been there),
  /// the matches left untaken (`missed`: cards, `from`, `until`, `seconds`), and each of `seats`
  /// seats' reaction times (`players`: seat, `found`, `fastest`, `mean`), times in seconds to
  /// one decimal. `boardSeen` is false for a face-down game: a match's time is then the time
  /// since the previous one, and nothing is missed. A daily puzzle's record adds `daily` (how
  /// its player compares with the day's).
  ///
  /// Written straight into its text, once per game: as a ``JSONValue`` tree, written into the
  /// diff of each view, it cost the service thread 171,000 instructions at every game's end
  /// (docs/BENCHMARKS.md).
  public static func lookBack(_ lookBack: GameLookBack, seats: Int, daily: JSONValue? = nil)
    -> EncodedJSON
  {
    EncodedJSON { out in
      out.raw(#"{"boardSeen":"#)
      out.bool(lookBack.boardSeen)
      out.raw(#","found":["#)
      out.separated(lookBack.found) { out, found in
        out.raw(#"{"seat":"#)
        out.int(found.seat)
        out.raw(#","cards":"#)
        out.ints(found.cards)
        out.raw(#","at":"#)
        out.double(tenths(found.at))
        out.raw(#","seconds":"#)
        out.double(tenths(found.seconds))
        out.byte(UInt8(ascii: "}"))
      }
      out.raw(#"],"missed":["#)
      out.separated(lookBack.missed) { out, missed in
        out.raw(#"{"cards":"#)
        out.ints(missed.cards)
        out.raw(#","from":"#)
        out.double(tenths(missed.from))
        out.raw(#","until":"#)
        out.double(tenths(missed.until))
        out.raw(#","seconds":"#)
        out.double(tenths(missed.seconds))
        out.byte(UInt8(ascii: "}"))
      }
      out.raw(#"],"players":["#)
      out.separated(lookBack.reactions(seats: seats)) { out, seat in
        out.raw(#"{"seat":"#)
        out.int(seat.seat)
        out.raw(#","found":"#)
        out.int(seat.seconds.count)
        out.raw(#","fastest":"#)
        tenthsOrNull(seat.fastest, to: &out)
        out.raw(#","mean":"#)
        tenthsOrNull(seat.mean, to: &out)
        out.byte(UInt8(ascii: "}"))
      }
      out.byte(UInt8(ascii: "]"))
      if let daily {
        out.raw(#","daily":"#)
        out.value(daily)
      }
      out.byte(UInt8(ascii: "}"))
    }
  }

  private static func tenthsOrNull(_ seconds: Double?, to out: inout JSONWriter) {
    if let seconds { out.double(tenths(seconds)) } else { out.raw("null") }
  }
}
