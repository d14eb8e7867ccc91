import Model

extension GameSettings {
  /// Appends the settings as `Codable` writes them (the same keys and values), for the records
  /// a store keeps: a table's record at every seat change and deal, and a finished game.
  /// `JSONEncoder` spent more on these fifteen fields, on the journal's thread, than the rest
  /// of a table's record. `StoredRecordTests` check that `JSONEncoder` writes the same object.
  public func writeStored(to out: inout JSONWriter) {
    out.raw(#"{"boardSize":"#)
    out.int(boardSize)
    out.raw(#","matchSize":"#)
    out.int(matchSize)
    out.raw(#","costToChoose":"#)
    out.int(costToChoose)
    out.raw(#","mismatchPenalty":"#)
    out.int(mismatchPenalty)
    out.raw(#","matchBonus":"#)
    out.int(matchBonus)
    out.raw(#","matchedCards":"#)
    out.string(matchedCards.rawValue)
    out.raw(#","dealsMoreWhenNoMatch":"#)
    out.bool(dealsMoreWhenNoMatch)
    out.raw(#","extraDealSize":"#)
    out.int(extraDealSize)
    out.raw(#","seats":"#)
    out.int(seats)
    out.raw(#","faceDown":"#)
    out.bool(faceDown)
    out.raw(#","turnBased":"#)
    out.bool(turnBased)
    out.raw(#","mismatchKeepsNewest":"#)
    out.bool(mismatchKeepsNewest)
    out.raw(#","matchPoints":"#)
    out.int(matchPoints)
    out.raw(#","ranksByMatches":"#)
    out.bool(ranksByMatches)
    out.raw(#","theme":"#)
    out.int(theme)
    out.byte(UInt8(ascii: "}"))
  }
}
