import Model

/// Set-Chain's cards are Set's cards and go on the wire exactly as Set's do (on the board and in
/// the chain alike); only the game's name and its opening line differ.
extension SetChainCard: WireCard {
  public static var gameName: String { "setChain" }

  public static var newGameLine: [StyledRun] {
    [.text("Find a set: after it, each set takes one card of the one before!")]
  }

  public var wireObject: JSONValue { card.wireObject }

  public func writeWireObject(to out: inout JSONWriter) {
    card.writeWireObject(to: &out)
  }

  public var statusRun: StyledRun { card.statusRun }

  public var faceMembers: [(String, JSONValue)] { card.faceMembers }

  public var spokenName: String { card.spokenName }
}
