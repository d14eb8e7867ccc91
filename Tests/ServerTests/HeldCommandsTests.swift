import Foundation
import Lobby
import Logging
import Protocol
import Store
import Testing

@testable import Server

/// The journal's hold on the transport's commands, and what the lobby's actions become: no
/// frame leaves before the journal entries it shows are written, whichever decision sends it.
@Suite struct HeldCommandsTests {
  private static func frame(_ text: String) -> Frame { Frame(Array(text.utf8)) }
  private static let alice = ConnectionID(rawValue: 1)

  /// What `commands` carry out through `held`, as the texts of their frames and markers.
  private static func run(_ commands: [TransportCommand], through held: inout HeldCommands)
    -> [String]
  {
    var out: [String] = []
    for command in commands {
      held.take(command) { out.append(Self.describe($0)) }
    }
    return out
  }

  private static func describe(_ command: TransportCommand) -> String {
    switch command {
    case .send(let frame, _), .sendToCrowd(let frame, _), .sendAtOnce(let frame, _):
      String(decoding: frame.payload, as: UTF8.self)
    case .close(_, let code, _): "close \(code)"
    case .closeAtOnce(_, let code, _): "close at once \(code)"
    case .hold(let ticket): "hold \(ticket)"
    case .release(let ticket): "release \(ticket)"
    case .moveShown(let at): "shown \(at)"
    case .news: "news"
    case .connect(let id, _): "connect \(id)"
    }
  }

  @Test func aHoldKeepsWhatFollowsUntilItsTicketIsReleasedInOrder() {
    var held = HeldCommands()
    let out = Self.run(
      [
        .send(Self.frame("a"), to: [Self.alice]), .hold(1),
        .send(Self.frame("b"), to: [Self.alice]),
        .moveShown(receivedAt: 1), .hold(2), .send(Self.frame("c"), to: [Self.alice]),
        .sendAtOnce(Self.frame("now"), to: [Self.alice]),
      ], through: &held)
    #expect(out == ["a", "now"])
    #expect(Self.run([.release(1)], through: &held) == ["b", "shown 1.0"])
    #expect(held.waiting.count == 2)
    #expect(Self.run([.release(2)], through: &held) == ["c"])
    #expect(held.waiting.isEmpty)
    // A hold of a ticket released already holds nothing; a later release lets earlier go.
    #expect(Self.run([.hold(2), .send(Self.frame("d"), to: [])], through: &held) == ["d"])
    _ = Self.run([.hold(3), .send(Self.frame("e"), to: []), .hold(4)], through: &held)
    #expect(Self.run([.release(4)], through: &held) == ["e"])
    #expect(held.releasedTicket == 4)
  }

  /// A journal writer whose writes wait at `store`'s gate.
  private static func writer(over store: GatedStore) -> JournalWriter {
    let writer = JournalWriter(
      store: store, logger: Logger(label: "test"), stallLimit: 60, released: { _ in })
    writer.start()
    return writer
  }

  private static func lobbyDiff() -> LobbyAction {
    .send(Self.frame(#"{"type":"lobbyDiff"}"#), to: [Self.alice])
  }

  @Test func entriesThatNoFrameFollowsStillHoldTheNextFrameThatShowsThem() throws {
    let store = GatedStore()
    let writer = Self.writer(over: store)
    defer { writer.stop() }
    store.close(gate: true)
    var held = HeldCommands()
    // A decision that only writes (the table closing), then a later one that shows it.
    var first: [TransportCommand] = []
    first.append(actions: [.journal(.tableClosed("t1"))], to: LobbyOutlets(journal: writer))
    var second: [TransportCommand] = []
    second.append(actions: [Self.lobbyDiff()], to: LobbyOutlets(journal: writer))
    #expect(Self.run(first + second, through: &held) == [])
    #expect(store.waitForAWriteAtTheGate())
    store.close(gate: false)
    let ticket = writer.lastQueuedTicket
    #expect(writer.waitUntilWritten(ticket, timeout: 10))
    #expect(Self.run([.release(ticket)], through: &held) == [#"{"type":"lobbyDiff"}"#])
  }

  @Test func entriesBeforeAQuestionHoldTheFramesAfterIt() {
    let store = GatedStore()
    let writer = Self.writer(over: store)
    defer { writer.stop() }
    store.close(gate: true)
    var commands: [TransportCommand] = []
    let request = RecordRequest(connection: Self.alice, replyTo: nil, kind: .record(id: "g1"))
    commands.append(
      actions: [.journal(.tableClosed("t1")), .query(request)], to: LobbyOutlets(journal: writer))
    commands.append(actions: [Self.lobbyDiff()], to: LobbyOutlets(journal: writer))
    var held = HeldCommands()
    #expect(Self.run(commands, through: &held) == [])
    store.close(gate: false)
  }

  @Test func aMovesLatencyMarkerFollowsItsFramesBehindTheHold() {
    let store = GatedStore()
    let writer = Self.writer(over: store)
    defer { writer.stop() }
    store.close(gate: true)
    var commands: [TransportCommand] = []
    commands.append(
      actions: [.journal(.tableClosed("t1")), Self.lobbyDiff()], to: LobbyOutlets(journal: writer),
      movesReceivedAt: [5])
    guard case .hold = commands.first, case .moveShown(5) = commands.last else {
      Issue.record("\(commands.map(Self.describe))")
      store.close(gate: false)
      return
    }
    #expect(commands.count == 3)
    store.close(gate: false)
  }

  @Test func withoutAJournalNothingIsHeld() {
    var commands: [TransportCommand] = []
    commands.append(actions: [.journal(.tableClosed("t1")), Self.lobbyDiff()])
    var held = HeldCommands()
    #expect(Self.run(commands, through: &held) == [#"{"type":"lobbyDiff"}"#])
  }
}
