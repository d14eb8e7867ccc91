import Model
import Protocol
import Testing

@testable import Lobby

/// A computer player offered to a person waiting alone at a public table (issue 33): the
/// table's clock makes the offer after its time alone, the host takes it, a person who comes
/// before the start takes the computer's seat, and every change of the table withdraws it.
@Suite struct ComputerOfferTests {
  static func table(
    seats: Int = 4, isPrivate: Bool = false, after: Double? = 20, faceDown: Bool = false
  ) -> TableState<SetCard> {
    var rules = TableRules()
    rules.countdown = 3
    var table = TableState<SetCard>(
      id: "t1", code: "ABCDEFGHJK", isPrivate: isPrivate,
      settings: .set(seats: seats, scoring: .classic), seed: 5, rules: rules, now: 0)
    table.offer.after = after
    return table
  }

  /// The kinds of a diff's events, in order, with the `open` of an offer's event.
  static func kinds(_ b: TableBroadcast) -> [String] {
    (b.diff["events"]?.elements ?? []).map { event in
      let kind = event["kind"]?.stringValue ?? "?"
      if kind == "computerOffer" { return "computerOffer:\(event["open"]?.boolValue == true)" }
      return kind
    }
  }

  @Test func aPlayerAloneIsOfferedAComputerAfterTheWaitAndNotBefore() throws {
    var table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 100).get()
    #expect(table.nextDeadline == 120)
    #expect(table.tick(now: 119.9).broadcasts.isEmpty)
    #expect(!table.offer.isOpen)
    let made = table.tick(now: 120).broadcasts
    #expect(made.count == 1 && Self.kinds(made[0]) == ["computerOffer:true"])
    #expect(made[0].diff["status"]?.elements?.isEmpty == false)
    #expect(table.offer.isOpen && table.nextDeadline == nil)
    #expect(table.snapshot(replyTo: nil, you: 0)["table"]?["computerOffer"] == .bool(true))
    // Made once.
    #expect(table.tick(now: 200).broadcasts.isEmpty)
  }

  @Test func theHostTakesItAndAComputerSitsMarkedButTheTableWaitsOn() throws {
    var table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    // Not before it is offered.
    let early = table.addComputer(by: 0, level: .casual, replyTo: .int(1), now: 5)
    #expect(early.failureCode == .noOffer)
    _ = table.tick(now: 20)
    // Only by the host.
    #expect(table.addComputer(by: 1, level: .casual, replyTo: nil, now: 21).failureCode == .notHost)
    let taken = try table.addComputer(by: 0, level: .casual, replyTo: .int(2), now: 21).get()
    #expect(Self.kinds(taken) == ["join", "computerOffer:false"])
    let join = try #require(taken.diff["events"]?.elements?.first)
    #expect(join["bot"] == .object([("level", .string("casual"))]))
    #expect(table.botSeats == [1: .casual] && table.host == 0 && table.phase == .waiting)
    #expect(!table.offer.isOpen && table.nextDeadline == nil)
    #expect(table.snapshot(replyTo: nil, you: 0)["table"]?["computerOffer"] == nil)
    // Taken once.
    #expect(table.addComputer(by: 0, level: .good, replyTo: nil, now: 22).failureCode == .noOffer)
    // The host starts when they like; the computer plays.
    _ = try table.start(by: 0, replyTo: nil, now: 30).get()
    _ = table.tick(now: 33)
    #expect(table.phase == .playing && table.nextDeadline != nil)
  }

  @Test func aPersonWhoComesBeforeTheStartTakesTheComputersSeat() throws {
    var table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = table.tick(now: 20)
    _ = try table.addComputer(by: 0, level: .expert, replyTo: nil, now: 21).get()
    let (seat, came) = try table.sit(token: "h-bob", name: "Bob", replyTo: nil, now: 25).get()
    #expect(Self.kinds(came) == ["leave", "join"])
    #expect(seat == 1 && table.seats[1]?.name == "Bob" && !table.hasBots)
    #expect(table.peopleSeated == 2 && table.botPlans.isEmpty)
    // Two people: no offer. One leaves: the other waits alone again, from then.
    #expect(table.nextDeadline == nil)
    _ = table.release(seat: 1, now: 40)
    #expect(table.nextDeadline == 60)
  }

  @Test func everyChangeWithdrawsAnOpenOffer() throws {
    // Someone sits.
    var table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = table.tick(now: 20)
    let (_, came) = try table.sit(token: "h-bob", name: "Bob", replyTo: nil, now: 21).get()
    #expect(Self.kinds(came).last == "computerOffer:false" && !table.offer.isOpen)
    // The game starts.
    table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = table.tick(now: 20)
    let started = try table.start(by: 0, replyTo: nil, now: 21).get()
    #expect(Self.kinds(started) == ["phase", "computerOffer:false"])
    // The player leaves: the table is empty.
    table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = table.tick(now: 20)
    let released = table.release(seat: 0, now: 21)
    let left = try #require(released)
    #expect(Self.kinds(left).contains("computerOffer:false") && table.emptySince == 21)
  }

  @Test func aTableWithOnlyComputersLeftIsEmpty() throws {
    var table = Self.table()
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = table.tick(now: 20)
    _ = try table.addComputer(by: 0, level: .casual, replyTo: nil, now: 21).get()
    _ = table.release(seat: 0, now: 30)
    #expect(table.hasBots && table.peopleSeated == 0 && table.emptySince == 30)
  }

  @Test func aComputerThatFillsTheTableStartsIt() throws {
    var table = Self.table(seats: 2)
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = table.tick(now: 20)
    let taken = try table.addComputer(by: 0, level: .good, replyTo: nil, now: 21).get()
    #expect(Self.kinds(taken) == ["join", "phase", "computerOffer:false"])
    #expect(table.phase == .countdown)
  }

  @Test func privateTablesAndTablesThatSayNeverMakeNoOffer() throws {
    for var table in [Self.table(isPrivate: true), Self.table(after: nil)] {
      _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
      #expect(table.nextDeadline == nil)
      #expect(table.tick(now: 1000).broadcasts.isEmpty)
    }
    // The table option: 0 is never, a number of seconds is that wait, none is 20 s.
    func after(_ seconds: Int?) throws -> Double? {
      try GameCatalog.setup(
        game: "set", seats: 4, options: TableOptions(offerComputer: seconds), replyTo: nil
      ).get().offerComputer
    }
    #expect(try after(0) == nil && after(45) == 45 && after(nil) == 20)
  }

  @Test func theWaitIsKeptInTheJournalAndStartsAgainAfterARestart() throws {
    var table = Self.table(after: 45)
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    let record = table.journalRecord(creator: "c")
    #expect(record.offerComputer == 45)
    let restored = TableState<SetCard>(restoring: record, moves: [], rules: table.rules, now: 500)
    #expect(restored.offer.after == 45 && restored.nextDeadline == 545)
  }
}

extension Result {
  /// The refusal's code, if this is one.
  fileprivate var failureCode: ErrorCode? {
    if case .failure(let error as ProtocolError) = self { return error.code }
    return nil
  }
}
