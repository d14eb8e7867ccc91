import Model

/// UltraSet's cards are Set's cards on the wire (``SetCardOnTheWire``); only the game's name
/// and its opening line differ.
extension UltraSetCard: SetCardOnTheWire {
  public static var gameName: String { "ultraSet" }

  public static var newGameLine: [StyledRun] {
    [.text("Find an UltraSet: two pairs that need the same third card!")]
  }
}
