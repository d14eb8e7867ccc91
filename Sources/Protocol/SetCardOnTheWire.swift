import Model

/// A card of a Set variant that plays Set's 81 cards under its own rule (UltraSet, Set-Chain):
/// on the wire it is its Set card exactly; only the game's name and opening line are its own.
public protocol SetCardOnTheWire: WireCard {
  /// The Set card it is.
  var card: SetCard { get }
}

extension SetCardOnTheWire {
  public var wireObject: JSONValue { card.wireObject }

  public func writeWireObject(to out: inout JSONWriter) {
    card.writeWireObject(to: &out)
  }

  public var statusRun: StyledRun { card.statusRun }

  public var faceMembers: [(String, JSONValue)] { card.faceMembers }

  public var spokenName: String { card.spokenName }
}
