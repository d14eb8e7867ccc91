import Foundation
import Lobby
import Logging
import Protocol
import Store
import Synchronization
import Testing

@testable import Server

@Suite struct JournalHealthTests {
  @Test func aWriteWithinTheLimitKeepsTheJournalUp() {
    var health = JournalHealth(stallLimit: 1)
    health.began(at: 10)
    #expect(health.check(at: 10.999) == nil)
    #expect(!health.down)
    #expect(health.succeeded() == nil)
    #expect(health.writingSince == nil)
    // Between writes there is nothing to wait for, however long the pause.
    #expect(health.check(at: 1_000) == nil)
    #expect(!health.down)
  }

  @Test func aWriteThatHangsPutsTheJournalDownOnceUntilItEnds() {
    var health = JournalHealth(stallLimit: 1)
    health.began(at: 10)
    #expect(health.check(at: 11) == .stalled)
    #expect(health.down)
    // Said once, however often it is looked at.
    #expect(health.check(at: 12) == nil)
    #expect(health.check(at: 30) == nil)
    #expect(health.down)
    #expect(health.succeeded() == .recovered)
    #expect(!health.down)
  }

  @Test func aHangThatEndsInAFailureStaysDownUntilAWriteSucceeds() {
    var health = JournalHealth(stallLimit: 1)
    health.began(at: 0)
    #expect(health.check(at: 5) == .stalled)
    #expect(health.failed() == nil)
    #expect(health.down)
    // The retry is quick but fails again; then it hangs: still down, nothing new to say.
    health.began(at: 6)
    #expect(health.failed() == nil)
    health.began(at: 7)
    #expect(health.check(at: 100) == nil)
    #expect(health.down)
    #expect(health.succeeded() == .recovered)
    #expect(!health.down)
  }

  @Test func aFailureIsSaidOnceAndASuccessBringsItBack() {
    var health = JournalHealth(stallLimit: 1)
    health.began(at: 0)
    #expect(health.failed() == .failed)
    health.began(at: 0.1)
    #expect(health.failed() == nil)
    // A failed write is not in progress: the watch has nothing to look at.
    #expect(health.check(at: 50) == nil)
    health.began(at: 0.3)
    #expect(health.succeeded() == .recovered)
    health.began(at: 1)
    #expect(health.succeeded() == nil)
    #expect(!health.down)
  }

  @Test func theJournalIsDownExactlyWhenAWriteFailedOrHasTakenTooLong() {
    // A long random run against a model: down = latest write failed and none succeeded since,
    // or the write in progress began at least the limit ago (once seen by a check).
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50 {
      var health = JournalHealth(stallLimit: 0.5)
      var now = 0.0
      var failedLast = false
      var sawStall = false
      var writing: Double?
      for _ in 0..<200 {
        now += Double.random(in: 0...0.4, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where writing == nil:
          health.began(at: now)
          writing = now
        case 1 where writing != nil:
          _ = health.succeeded()
          writing = nil
          failedLast = false
          sawStall = false
        case 2 where writing != nil:
          _ = health.failed()
          writing = nil
          failedLast = true
          sawStall = false
        default:
          let change = health.check(at: now)
          let stalls = writing.map { now - $0 >= 0.5 } ?? false
          if stalls && !failedLast && !sawStall {
            #expect(change == .stalled)
          } else {
            #expect(change == nil)
          }
          if stalls { sawStall = true }
        }
        #expect(health.down == (failedLast || sawStall))
      }
    }
  }
}

/// A store whose writes wait at a gate until the test opens it, and can be made to fail.
private final class GatedStore: JournalStore, @unchecked Sendable {
  let inner = MemoryJournalStore()
  private let lock = NSCondition()
  private var open = true
  private var failing = false
  private(set) var waiting = 0

  func close(gate: Bool) {
    lock.lock()
    open = !gate
    lock.broadcast()
    lock.unlock()
  }

  func fail(_ fail: Bool) {
    lock.lock()
    failing = fail
    lock.unlock()
  }

  /// Waits (up to 10 s) until a write is held at the gate.
  func waitForAWriteAtTheGate() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let deadline = Date(timeIntervalSinceNow: 10)
    while waiting == 0 {
      if !lock.wait(until: deadline) { return false }
    }
    return true
  }

  func load() throws -> JournalContents { try inner.load() }
  func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    try inner.removeFinishedGames(endedBefore: cutoff, limit: limit)
  }

  func write(_ entries: [JournalEntry]) throws {
    lock.lock()
    waiting += 1
    lock.broadcast()
    while !open { lock.wait() }
    waiting -= 1
    let fails = failing
    lock.unlock()
    if fails { throw StoreError("the disk is gone") }
    try inner.write(entries)
  }

  func scores(_ query: ScoresQuery) throws -> ScoresPage { try inner.scores(query) }
  func finishedGame(id: String) throws -> FinishedGame? { try inner.finishedGame(id: id) }
}

@Suite struct JournalWriterStallTests {
  private static func entry(_ index: Int) -> JournalEntry {
    .session(SessionRecord(token: "hash-\(index)", name: "P\(index)", tableID: nil, seat: nil))
  }

  /// A started writer over `store` that commits as soon as it can.
  private static func started(
    over store: GatedStore, stallLimit: Double = 0.05,
    released: @escaping @Sendable (UInt64) -> Void = { _ in }
  ) -> JournalWriter {
    let writer = JournalWriter(
      store: store, logger: Logger(label: "test"), interval: 0, stallLimit: stallLimit,
      released: released)
    writer.start()
    return writer
  }

  private static func down(_ writer: JournalWriter) -> Bool {
    writer.failing.load(ordering: .relaxed)
  }

  /// Waits (up to 10 s) until `condition` holds; whether it did.
  private static func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !condition() {
      if Date() > deadline { return false }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return true
  }

  @Test func aWriteThatHangsIsNoticedAndTheJournalComesBackWhenItEnds() throws {
    let store = GatedStore()
    let released = Atomic<UInt64>(0)
    let writer = Self.started(over: store) { ticket in
      released.store(ticket, ordering: .relaxed)
    }
    defer { writer.stop() }

    let first = writer.append([Self.entry(0)])
    #expect(writer.waitUntilWritten(first, timeout: 10))
    #expect(!Self.down(writer))

    store.close(gate: true)
    let held = writer.append([Self.entry(1)])
    #expect(store.waitForAWriteAtTheGate())
    // The write hangs: the watch puts the journal down while it is still in progress.
    #expect(Self.eventually { writer.failing.load(ordering: .relaxed) })
    #expect(released.load(ordering: .relaxed) == first)
    // Only the first write is in the store, and only its frames were released.
    #expect(try store.inner.load().sessions.count == 1)

    store.close(gate: false)
    #expect(writer.waitUntilWritten(held, timeout: 10))
    #expect(Self.eventually { released.load(ordering: .relaxed) == held })
    #expect(!Self.down(writer))
    #expect(writer.failures == 0)
  }

  @Test func aWaitForWritesWhileUpEndsWhenTheJournalGoesDown() {
    let store = GatedStore()
    let writer = Self.started(over: store)
    defer { writer.stop() }
    store.close(gate: true)
    let ticket = writer.append([Self.entry(0)])
    #expect(store.waitForAWriteAtTheGate())
    // Waits begun while the write hangs end once the journal is down, without the write.
    let answers = Mutex<[Bool]>([])
    for _ in 0..<2 {
      Thread.detachNewThread {
        let written = writer.waitUntilWritten(ticket, timeout: 600, onlyWhileUp: true)
        answers.withLock { $0.append(written) }
      }
      #expect(Self.eventually { Self.down(writer) })
    }
    #expect(Self.eventually { answers.withLock { $0.count } == 2 })
    #expect(answers.withLock { $0 } == [false, false])
    // A wait without `onlyWhileUp` is for the write itself.
    store.close(gate: false)
    #expect(writer.waitUntilWritten(ticket, timeout: 10))
    #expect(writer.waitUntilWritten(ticket, timeout: 10, onlyWhileUp: true))
  }

  @Test func aHangThatEndsInAFailureStaysDownUntilARetrySucceeds() throws {
    let store = GatedStore()
    let writer = Self.started(over: store)
    defer { writer.stop() }

    store.close(gate: true)
    store.fail(true)
    let ticket = writer.append([Self.entry(0)])
    #expect(store.waitForAWriteAtTheGate())
    #expect(Self.eventually { writer.failing.load(ordering: .relaxed) })
    store.close(gate: false)
    // It fails and is retried: down all along.
    #expect(Self.eventually { writer.failures >= 2 })
    #expect(Self.down(writer))
    store.fail(false)
    #expect(writer.waitUntilWritten(ticket, timeout: 10))
    #expect(Self.eventually { !writer.failing.load(ordering: .relaxed) })
  }

  @Test func writesFasterThanTheLimitNeverPutTheJournalDown() {
    let store = GatedStore()
    let writer = Self.started(over: store, stallLimit: 5)
    defer { writer.stop() }
    var last: UInt64 = 0
    for index in 0..<500 {
      last = writer.append([Self.entry(index)])
      #expect(!Self.down(writer))
    }
    #expect(writer.waitUntilWritten(last, timeout: 10))
    #expect(!Self.down(writer))
  }
}
