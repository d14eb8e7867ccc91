import Model

/// Set Junior's cards go on the wire as the solid Set cards they look like, so that whatever
/// draws a Set card draws them: the same members in the same order, `shading` always `solid`,
/// and the card's own id (0...26).
extension JuniorSetCard: WireCard {
  public static var gameName: String { "setJunior" }

  public static var newGameLine: [StyledRun] { StatusLine.newGame }

  public var wireObject: JSONValue {
    .object([("id", .int(id))] + faceMembers)
  }

  public func writeWireObject(to out: inout JSONWriter) {
    face.writeWireObject(to: &out, id: id)
  }

  /// The solid Set card's run, under this card's id and spoken name (made once per card).
  public var statusRun: StyledRun { Self.statusRuns[id] }

  /// Every card's run, by card id.
  private static let statusRuns = fullDeck.map { $0.madeStatusRun.cachingItsBytes() }

  private var madeStatusRun: StyledRun {
    var run = face.statusRun
    run.card = id
    run.label = spokenName
    return run
  }

  public var faceMembers: [(String, JSONValue)] { face.faceMembers }

  /// "two green squiggles": every card is solid, so the shading goes unsaid.
  public var spokenName: String {
    let count = ["one", "two", "three"][number - 1]
    let shape = valueName(1) + (number > 1 ? "s" : "")
    return "\(count) \(valueName(2)) \(shape)"
  }
}
