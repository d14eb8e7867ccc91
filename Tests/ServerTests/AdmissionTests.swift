import Lobby
import Protocol
import Testing

@testable import Server

/// A crowd arriving at once does not hold the players' moves up behind it (``Admission``).
@Suite struct AdmissionTests {
  private static func message(_ connection: UInt64, _ text: String) -> AdmissionItem {
    .message(
      ConnectionID(rawValue: connection), ClientMessageDecoder.decode(Array(text.utf8)),
      receivedAt: 0)
  }

  private static let spectate = #"{"type":"spectate","code":"ABCDEF"}"#
  private static let choose = #"{"type":"choose","card":7}"#

  @Test func aPassDecidesItsBudgetAtOnceAndMovesAlwaysThenTheRestWaitsInOrder() {
    var admission = Admission<AdmissionItem>()
    // A storm of spectators: the pass's budget is decided at once, the rest waits.
    let storm = (0..<UInt64(100)).map { Self.message(1000 + $0, Self.spectate) }
    let now = storm.map { admission.admit($0) }
    #expect(now.prefix(AdmissionBudget.perPass).allSatisfy { $0 })
    #expect(now.dropFirst(AdmissionBudget.perPass).allSatisfy { !$0 })
    #expect(admission.waiting == 100 - AdmissionBudget.perPass)
    // A player's move in the middle of it is decided at once.
    let admitted1 = admission.admit(Self.message(1, Self.choose))
    #expect(admitted1)
    // Nothing more this pass; the next decides its budget of the waiting ones, oldest first.
    let none = admission.next()
    #expect(none == nil)
    admission.passEnded()
    var later: [UInt64] = []
    while let item = admission.next() { later.append(item.client.rawValue) }
    #expect(
      later
        == Array(
          1000 + UInt64(AdmissionBudget.perPass)..<1000 + 2 * UInt64(AdmissionBudget.perPass)))
    admission.passEnded()
    while admission.hasWaiting {
      while admission.next() != nil {}
      admission.passEnded()
    }
    #expect(admission.waiting == 0)
  }

  @Test func aConnectionKeepsItsOrderItsMoveAndCloseWaitBehindItsWaitingMessage() {
    var admission = Admission<AdmissionItem>()
    for connection in 0..<UInt64(AdmissionBudget.perPass) {
      let admitted2 = admission.admit(Self.message(100 + connection, Self.spectate))
      #expect(admitted2)
    }
    // Past the budget: Ada's spectate waits, and so do her move and her close after it.
    let admitted3 = admission.admit(Self.message(7, Self.spectate))
    #expect(!admitted3)
    let admitted4 = admission.admit(Self.message(7, Self.choose))
    #expect(!admitted4)
    let admitted5 = admission.admit(.closed(ConnectionID(rawValue: 7)))
    #expect(!admitted5)
    // Bob's move does not wait; his close has nothing to wait behind, but is not a move.
    let admitted6 = admission.admit(Self.message(8, Self.choose))
    #expect(admitted6)
    let admitted7 = admission.admit(.closed(ConnectionID(rawValue: 8)))
    #expect(!admitted7)
    admission.passEnded()
    var order: [String] = []
    while let item = admission.next() {
      switch item {
      case .message(let connection, _, _):
        order.append("\(connection.rawValue)\(item.isMove ? " move" : "")")
      case .closed(let connection): order.append("\(connection.rawValue) closed")
      }
    }
    #expect(order == ["7", "7 move", "7 closed", "8 closed"])
    // Once nothing of hers waits, Ada's move is decided at once again.
    let admitted8 = admission.admit(Self.message(7, Self.choose))
    #expect(admitted8)
  }

  @Test func whatArrivesWhileOthersWaitWaitsBehindThemEvenWithBudgetLeft() {
    var admission = Admission<AdmissionItem>()
    for connection in 0...UInt64(AdmissionBudget.perPass) {
      _ = admission.admit(Self.message(100 + connection, Self.spectate))
    }
    #expect(admission.waiting == 1)
    admission.passEnded()
    // The next pass has budget, but a newcomer waits behind the one that waited first.
    let admitted = admission.admit(Self.message(500, Self.spectate))
    #expect(!admitted)
    let first = admission.next()?.client.rawValue
    let second = admission.next()?.client.rawValue
    #expect(first == 100 + UInt64(AdmissionBudget.perPass))
    #expect(second == 500)
    // A move is decided at once whatever waits; and so is what is no client's.
    for connection in 0...UInt64(AdmissionBudget.perPass) {
      _ = admission.admit(Self.message(600 + connection, Self.spectate))
    }
    let move = admission.admit(Self.message(1, Self.choose))
    #expect(move)
    var others = Admission<NoClient>()
    let all = (0..<100).map { _ in others.admit(NoClient()) }
    #expect(all.allSatisfy { $0 })
  }

  @Test func admissionsSharingABudgetSpendOnePassOfItAndNotTheNextBeforeTheyBeginIt() {
    let budget = AdmissionBudget()
    var first = Admission<AdmissionItem>(budget: budget)
    var second = Admission<AdmissionItem>(budget: budget)
    // Two executors' storms: together they decide one budget's worth, the rest waits.
    for connection in 0..<UInt64(AdmissionBudget.perPass) {
      _ = first.admit(Self.message(1000 + connection, Self.spectate))
      _ = second.admit(Self.message(2000 + connection, Self.spectate))
    }
    #expect(first.waiting + second.waiting == AdmissionBudget.perPass)
    // The service thread's pass ends (the budget is refilled) while the first goes on deciding:
    // it gets nothing more until it begins the new pass, as its executor's next run does.
    budget.refill()
    #expect(first.next() == nil)
    first.begin()
    second.begin()
    var decided = 0
    while first.next() != nil || second.next() != nil { decided += 1 }
    #expect(decided == AdmissionBudget.perPass)
    #expect(first.waiting + second.waiting == 0)
  }

  /// Stands for what is no client's (news from the cluster, another node's link).
  private struct NoClient: Admissible {
    var connection: ConnectionID? { nil }
    var isMove: Bool { false }
  }

  @Test func theInlineLobbyAnswersPastItsBudgetInTheNextPassAndAsksForIt() {
    var commands: [TransportCommand] = []
    let lobby = Self.crowdSaysHello(AdmissionBudget.perPass + 8, commands: &commands)
    let answered = Set(commands.flatMap(Self.addressees))
    #expect(answered.count == AdmissionBudget.perPass)
    #expect(lobby.waitingMessages == 8)
    // It asks to be called at once, and the next pass answers the rest.
    #expect(lobby.nextDeadline() == 0)
    lobby.passEnded()
    commands.removeAll()
    lobby.deadlineReached(now: 1, commands: &commands)
    #expect(Set(commands.flatMap(Self.addressees)).count == 8)
    #expect(lobby.waitingMessages == 0)
    #expect(lobby.nextDeadline() != 0)
  }

  /// Past its slice of time a pass decides no more of what waits, though its count allows:
  /// the rest wait for the next pass, asked for at once.
  @Test func theInlineLobbyDecidesWhatWaitsForASliceOfThePass() {
    var commands: [TransportCommand] = []
    let lobby = Self.crowdSaysHello(AdmissionBudget.perPass + 8, commands: &commands)
    #expect(lobby.waitingMessages == 8)
    lobby.passEnded()
    let slice = InlineLobby.admissionSlice
    let first = lobby.admitNext(now: 2, commands: &commands)
    let within = lobby.admitNext(now: 2 + slice / 2, commands: &commands)
    let past = lobby.admitNext(now: 2 + slice, commands: &commands)
    #expect(first && within && !past)
    #expect(lobby.waitingMessages == 6 && lobby.nextDeadline() == 0)
    // The next pass has a slice of its own.
    lobby.passEnded()
    let next = lobby.admitNext(now: 3, commands: &commands)
    #expect(next && lobby.waitingMessages == 5)
  }

  /// The slice also bounds what a pass reads: past it, a spectator's message read in the
  /// same pass waits though the count allows it, a player's move is decided at once, and the
  /// next pass decides what waited.
  @Test func aPassDecidesWhatItReadsOnlyWithinItsSlice() {
    var commands: [TransportCommand] = []
    let lobby = InlineLobby(state: LobbyState(entropy: .system))
    let slice = InlineLobby.admissionSlice
    func hello(_ connection: UInt64, at now: Double) {
      lobby.handle(
        .message(
          ConnectionID(rawValue: connection),
          Array(#"{"type":"hello","id":1,"name":"Crowd"}"#.utf8), receivedAt: 0),
        now: now, commands: &commands)
    }
    hello(1, at: 1)
    hello(2, at: 1 + slice / 2)
    #expect(lobby.waitingMessages == 0)
    // Past the slice: the third and fourth wait, far below the count of the pass.
    hello(3, at: 1 + slice * 2)
    hello(4, at: 1 + slice * 3)
    #expect(lobby.waitingMessages == 2)
    #expect(lobby.nextDeadline() == 0)
    #expect(Set(commands.flatMap(Self.addressees).map(\.rawValue)) == [1, 2])
    // The next pass answers them.
    lobby.passEnded()
    commands.removeAll()
    lobby.deadlineReached(now: 2, commands: &commands)
    #expect(lobby.waitingMessages == 0)
    #expect(Set(commands.flatMap(Self.addressees).map(\.rawValue)) == [3, 4])
  }

  /// Past the slice a move read in the pass is still decided at once (``Admission``).
  @Test func pastTheSliceAMoveIsStillDecidedAtOnce() {
    var admission = Admission<AdmissionItem>()
    let spectator = admission.admit(Self.message(7, Self.spectate), sliceSpent: true)
    let player = admission.admit(Self.message(8, Self.choose), sliceSpent: true)
    // Its own connection's move waits behind what that connection has waiting.
    let behind = admission.admit(Self.message(7, Self.choose), sliceSpent: true)
    #expect(!spectator && player && !behind)
    #expect(admission.waiting == 2)
  }

  /// An inline lobby that `count` connections said `hello` to in one pass (at time 1).
  private static func crowdSaysHello(_ count: Int, commands: inout [TransportCommand])
    -> InlineLobby
  {
    let lobby = InlineLobby(state: LobbyState(entropy: .system))
    for connection in 0..<UInt64(count) {
      lobby.handle(
        .message(
          ConnectionID(rawValue: 10 + connection),
          Array(#"{"type":"hello","id":1,"name":"Crowd"}"#.utf8), receivedAt: 0),
        now: 1, commands: &commands)
    }
    return lobby
  }

  private static func addressees(_ command: TransportCommand) -> [ConnectionID] {
    switch command {
    case .send(_, let to), .sendToCrowd(_, let to): to
    default: []
    }
  }
}
