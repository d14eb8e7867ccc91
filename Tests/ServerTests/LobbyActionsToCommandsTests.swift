import Foundation
import Lobby
import Logging
import Protocol
import Store
import Synchronization
import Testing

@testable import Server

/// `[TransportCommand].append(actions:)`: what the lobby's actions become on the transport, and
/// where the journal's holds go.
@Suite struct LobbyActionsToCommandsTests {
  private static let alice = ConnectionID(rawValue: 1)
  private static let bob = ConnectionID(rawValue: 2)

  private static func frame(_ text: String) -> Frame { Frame(Array(text.utf8)) }

  private static func describe(_ commands: [TransportCommand]) -> [String] {
    commands.map { command in
      switch command {
      case .send(let frame, let ids):
        "send \(String(decoding: frame.payload, as: UTF8.self)) \(ids.map(\.rawValue))"
      case .sendToCrowd(let frame, let ids):
        "crowd \(String(decoding: frame.payload, as: UTF8.self)) \(ids.map(\.rawValue))"
      case .sendAtOnce(let frame, let ids):
        "now \(String(decoding: frame.payload, as: UTF8.self)) \(ids.map(\.rawValue))"
      case .close(let id, let code, let reason): "close \(id.rawValue) \(code) \(reason)"
      case .closeAtOnce(let id, let code, let reason): "close now \(id.rawValue) \(code) \(reason)"
      case .hold(let ticket): "hold \(ticket)"
      case .release(let ticket): "release \(ticket)"
      case .moveShown(let at): "shown \(at)"
      case .news: "news"
      case .connect(let id, let url): "connect \(id) \(url)"
      }
    }
  }

  /// A writer that is never started: its tickets count 1, 2, 3… and nothing is written.
  private static func idleWriter() -> JournalWriter {
    JournalWriter(store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
  }

  @Test func withoutEntriesEveryActionBecomesItsCommandInOrder() {
    var commands: [TransportCommand] = [.release(9)]
    commands.append(
      actions: [
        .send(Self.frame("a"), to: [Self.alice, Self.bob]),
        .sendAtOnce(Self.frame("b"), to: [Self.bob]),
        .close(Self.alice, code: 4001, reason: "bye"),
      ], to: LobbyOutlets(journal: Self.idleWriter()))
    // Appended after what was there.
    #expect(
      Self.describe(commands) == ["release 9", "send a [1, 2]", "now b [2]", "close 1 4001 bye"])
  }

  @Test func entriesGoToTheJournalAsOneBatchAndHoldWhatFollows() {
    let writer = Self.idleWriter()
    var commands: [TransportCommand] = []
    commands.append(
      actions: [
        .journal(.tableClosed("t1")), .journal(.tableClosed("t2")), .send(Self.frame("a"), to: []),
        .send(Self.frame("b"), to: []),
      ], to: LobbyOutlets(journal: writer))
    #expect(Self.describe(commands) == ["hold 1", "send a []", "send b []"])
    #expect(writer.lastQueuedTicket == 1)
  }

  @Test func eachRunOfEntriesHoldsTheActionsAfterItEvenWithNoneAfterIt() {
    let writer = Self.idleWriter()
    var commands: [TransportCommand] = []
    commands.append(
      actions: [
        .journal(.tableClosed("t1")), .send(Self.frame("a"), to: []),
        .journal(.tableClosed("t2")), .sendAtOnce(Self.frame("b"), to: []),
        .journal(.tableClosed("t3")), .close(Self.alice, code: 1000, reason: ""),
        .journal(.tableClosed("t4")),
      ], to: LobbyOutlets(journal: writer))
    #expect(
      Self.describe(commands) == [
        "hold 1", "send a []", "hold 2", "now b []", "hold 3", "close 1 1000 ", "hold 4",
      ])
    // The next decision's frames wait behind the last hold.
    commands.append(actions: [.send(Self.frame("c"), to: [])], to: LobbyOutlets(journal: writer))
    #expect(Self.describe(commands).suffix(2) == ["hold 4", "send c []"])
    #expect(writer.lastQueuedTicket == 4)
  }

  @Test func movesAreShownAfterEverythingTheirActionsSend() {
    let writer = Self.idleWriter()
    var commands: [TransportCommand] = []
    commands.append(
      actions: [.send(Self.frame("a"), to: []), .journal(.tableClosed("t1"))],
      to: LobbyOutlets(journal: writer),
      movesReceivedAt: [5, 6])
    #expect(Self.describe(commands) == ["send a []", "hold 1", "shown 5.0", "shown 6.0"])
  }

  @Test func withoutAJournalEntriesAreDroppedAndNothingIsHeld() {
    var commands: [TransportCommand] = []
    commands.append(
      actions: [.journal(.tableClosed("t1")), .send(Self.frame("a"), to: [])],
      movesReceivedAt: [1])
    #expect(Self.describe(commands) == ["send a []", "shown 1.0"])
  }

  @Test func aQuestionWaitsForTheEntriesBeforeItAndARefusalGoesAtOnce() {
    let writer = Self.idleWriter()
    let records = RecordReader(
      store: MemoryJournalStore(), journal: writer, logger: Logger(label: "test"),
      queue: RecordQueue(perConnection: 1, capacity: 8))
    let question = RecordRequest(connection: Self.alice, replyTo: nil, kind: .record(id: "g1"))
    var commands: [TransportCommand] = []
    commands.append(
      actions: [.journal(.tableClosed("t1")), .query(question), .query(question)],
      to: LobbyOutlets(journal: writer, records: records))
    // The first question is queued with the reader (after ticket 1); the second is one too
    // many for alice and refused at once.
    let described = Self.describe(commands)
    #expect(described.count == 2)
    #expect(described.first == "hold 1")
    #expect(described.last?.hasPrefix("now ") == true)
    #expect(described.last?.contains("unavailable") == true)
    #expect(described.last?.hasSuffix("[1]") == true)
  }

  @Test func aLineForTheLogIsLoggedWithItsTableAndGameAndSendsNothing() {
    let recorder = RecordingLogHandler.Lines()
    let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: recorder) }
    var commands: [TransportCommand] = []
    commands.append(
      actions: [.log(.tableNotAdopted(UnknownGameError(game: "twins", table: "t7")))],
      to: LobbyOutlets(logger: logger))
    #expect(commands.isEmpty)
    let lines = recorder.all
    #expect(lines.count == 1)
    #expect(lines.first?.level == .warning)
    #expect(lines.first?.message.contains("t7") == true)
    #expect(lines.first?.message.contains("twins") == true)
    #expect(lines.first?.metadata == ["table": "t7", "game": "twins"])
  }
}

/// A log handler that keeps every line, for tests that check what was logged.
struct RecordingLogHandler: LogHandler {
  /// One line: its level, message and metadata (as strings).
  struct Line: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
  }

  /// The lines, shared by the copies of the handler a logger makes.
  final class Lines: Sendable {
    private let lines = Mutex<[Line]>([])
    func append(_ line: Line) { lines.withLock { $0.append(line) } }
    var all: [Line] { lines.withLock { $0 } }
  }

  let lines: Lines
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let all = metadata.merging(event.metadata ?? [:]) { $1 }
    lines.append(
      Line(
        level: event.level, message: event.message.description,
        metadata: all.mapValues { "\($0)" }))
  }
}
