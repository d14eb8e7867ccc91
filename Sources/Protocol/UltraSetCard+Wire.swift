import Model

/// UltraSet's cards are Set's cards and go on the wire exactly as Set's do; only the game's name
/// and its opening line differ.
extension UltraSetCard: WireCard {
  public static var gameName: String { "ultraSet" }

  public static var newGameLine: [StyledRun] {
    [.text("Find an UltraSet: two pairs that need the same third card!")]
  }

  public var wireObject: JSONValue { card.wireObject }

  public func writeWireObject(to out: inout JSONWriter) {
    card.writeWireObject(to: &out)
  }

  public var statusRun: StyledRun { card.statusRun }

  public var faceMembers: [(String, JSONValue)] { card.faceMembers }

  public var spokenName: String { card.spokenName }
}
