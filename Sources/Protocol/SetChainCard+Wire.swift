import Model

/// Set-Chain's cards are Set's cards on the wire, on the board and in the chain alike
/// (``SetCardOnTheWire``); only the game's name and its opening line differ.
extension SetChainCard: SetCardOnTheWire {
  public static var gameName: String { "setChain" }

  public static var newGameLine: [StyledRun] {
    [.text("Find a set: after it, each set takes one card of the one before!")]
  }
}
