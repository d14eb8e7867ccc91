import Foundation
import Logging
import Model
import Protocol
import Synchronization
import Testing

@testable import Server

/// The order in which held commands are released: in the order they were queued, none before
/// the journal has written its ticket, whatever the interleaving of holds, sends and releases.
@Suite struct HeldCommandsOrderTests {
  private static let alice = ConnectionID(rawValue: 1)

  private static func send(_ text: String) -> TransportCommand {
    .send(Frame(Array(text.utf8)), to: [alice])
  }

  private static func text(_ command: TransportCommand) -> String {
    switch command {
    case .send(let frame, _), .sendToCrowd(let frame, _), .sendAtOnce(let frame, _):
      String(decoding: frame.payload, as: UTF8.self)
    case .close(_, let code, _): "close \(code)"
    case .closeAtOnce(_, let code, _): "close at once \(code)"
    case .moveShown(let at): "shown \(Int(at))"
    case .hold(let ticket): "hold \(ticket)"
    case .release(let ticket): "release \(ticket)"
    case .news: "news"
    case .connect(let id, _): "connect \(id)"
    }
  }

  private static func take(_ commands: [TransportCommand], _ held: inout HeldCommands) -> [String] {
    var out: [String] = []
    for command in commands { held.take(command) { out.append(text($0)) } }
    return out
  }

  @Test func aReleaseLetsGoEveryTicketUpToItAndAStaleOneNothing() {
    var held = HeldCommands()
    #expect(
      Self.take(
        [
          .hold(1), Self.send("a"), .close(Self.alice, code: 1000, reason: ""), .hold(2),
          Self.send("b"), .moveShown(receivedAt: 7), .hold(3), Self.send("c"),
        ], &held) == [])
    // The journal writes in order: ticket 2 written means ticket 1 is too.
    #expect(Self.take([.release(2)], &held) == ["a", "close 1000", "b", "shown 7"])
    #expect(Self.take([.release(1)], &held) == [])
    #expect(Self.take([Self.send("d")], &held) == [])
    #expect(Self.take([.release(3)], &held) == ["c", "d"])
    #expect(held.waiting.isEmpty)
  }

  @Test func aReleaseThatOvertookItsHoldLeavesNothingHeld() {
    // Commands posted from another thread: the writer may report a ticket written before the
    // hold of that ticket reaches the service thread.
    var held = HeldCommands()
    #expect(
      Self.take([.release(3), .hold(2), Self.send("a"), .hold(3), Self.send("b")], &held)
        == ["a", "b"])
    #expect(Self.take([.hold(4), Self.send("c")], &held) == [])
    #expect(Self.take([.release(4)], &held) == ["c"])
  }

  @Test func anyInterleavingReleasesInQueueOrderAndNeverEarly() {
    for seed: UInt64 in 1...40 {
      var random = SplitMix64(seed: seed)
      var held = HeldCommands()
      var issued: UInt64 = 0
      var written: UInt64 = 0
      /// The ticket each queued command waits for (the latest hold before it), by label.
      var needs: [String: UInt64] = [:]
      var queued: [String] = []
      var carried: [String] = []
      for step in 0..<300 {
        let roll = random.next() % 100
        var command: TransportCommand
        var label: String?
        switch roll {
        case 0..<25:
          issued += 1
          command = .hold(issued)
        case 25..<40 where written < issued:
          // The journal writes the next few tickets, in order.
          written += 1 + random.next() % (issued - written)
          command = .release(written)
        case 40..<50:
          label = "now\(step)"
          command = .sendAtOnce(Frame(Array(label!.utf8)), to: [Self.alice])
        default:
          label = "f\(step)"
          command = Self.send(label!)
          needs[label!] = issued
          queued.append(label!)
        }
        var out: [String] = []
        held.take(command) { out.append(Self.text($0)) }
        if let label, label.hasPrefix("now") {
          #expect(out == [label], "seed \(seed): a sendAtOnce waits for nothing")
          continue
        }
        for name in out {
          let need = needs[name] ?? .max
          #expect(need <= written, "seed \(seed): \(name) left before ticket \(need) was written")
        }
        carried += out
        // Exactly the queued commands whose ticket is written have left, in queue order.
        #expect(carried == queued.filter { needs[$0]! <= written }, "seed \(seed) step \(step)")
      }
      carried += Self.take([.release(issued)], &held)
      #expect(carried == queued, "seed \(seed)")
      #expect(held.waiting.isEmpty)
    }
  }

  @Test func framesLeaveAsTheJournalReportsTheirTicketsWritten() throws {
    let store = GatedStore()
    let reported = Mutex<[UInt64]>([])
    let writer = JournalWriter(
      store: store, logger: Logger(label: "test"), stallLimit: 60,
      released: { ticket in reported.withLock { $0.append(ticket) } })
    writer.start()
    defer { writer.stop() }
    store.close(gate: true)
    var commands: [TransportCommand] = []
    for table in 1...4 {
      commands.append(
        actions: [
          .journal(.tableClosed("t\(table)")),
          .send(Frame(Array("closed t\(table)".utf8)), to: [Self.alice]),
        ], to: LobbyOutlets(journal: writer))
    }
    var held = HeldCommands()
    #expect(Self.take(commands, &held) == [])
    #expect(store.waitForAWriteAtTheGate())
    // Nothing is reported while the write waits at the gate.
    #expect(reported.withLock { $0 }.isEmpty)
    store.close(gate: false)
    #expect(writer.waitUntilWritten(4, timeout: 10))
    // The writer reports a ticket just after it counts it written.
    let deadline = Date(timeIntervalSinceNow: 10)
    while reported.withLock({ $0.last }) != 4 && Date() < deadline { usleep(1000) }
    let tickets = reported.withLock { $0 }
    #expect(tickets == tickets.sorted() && tickets.last == 4)
    var out: [String] = []
    for ticket in tickets {
      out += Self.take([.release(ticket)], &held)
      #expect(out == (1...Int(ticket)).map { "closed t\($0)" })
    }
  }
}
