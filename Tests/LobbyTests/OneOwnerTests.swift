import Foundation
import Testing

/// Each piece of the lobby's bookkeeping has one owner in the sources (issue 32): a second
/// place that does the same job makes one of these fail, before it drifts from the first.
@Suite struct OneOwnerTests {
  /// Every Swift file of the Lobby target, by name, with its lines (comments left out).
  static let lobbySources: [(name: String, lines: [String])] = {
    let folder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/Lobby")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
      let lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map {
        String($0)
      }
      return (name, lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") })
    }
  }()

  /// The files and lines where `needle` stands, but for `case` patterns (which read a value,
  /// not make one).
  static func places(of needle: String) -> [String] {
    lobbySources.flatMap { file in
      file.lines.enumerated().filter {
        $0.element.contains(needle)
          && !$0.element.trimmingCharacters(in: .whitespaces).hasPrefix("case ")
      }.map {
        "\(file.name):\($0.offset + 1)"
      }
    }
  }

  @Test func theSourcesAreRead() {
    #expect(Self.lobbySources.count > 50)
    #expect(Self.lobbySources.contains { $0.name == "LobbyState.swift" })
  }

  /// Journal entries become actions in one place (`LobbyState.journalFirst`), ahead of the
  /// frames of their decision: no event puts them among its frames by hand.
  @Test func journalEntriesBecomeActionsInOnePlace() {
    let places = Self.places(of: ".journal(")
    #expect(places.count == 1, "\(places)")
    #expect(places.first?.hasPrefix("LobbyState.swift:") == true, "\(places)")
  }

  /// A table leaves the router's books in one place (`retire`), closed or given up.
  @Test func aTableIsRetiredInOnePlace() {
    // (TableShards.swift is the map itself.)
    let removals = Self.places(of: "hosts.removeValue(").filter {
      !$0.hasPrefix("TableShards.swift:")
    }
    #expect(removals.count == 1, "\(removals)")
    #expect(removals.first?.hasPrefix("LobbyState+Tables.swift:") == true, "\(removals)")
    let closings = Self.places(of: ".tableClosed(")
    #expect(closings.count == 1, "\(closings)")
    #expect(closings.first?.hasPrefix("TableState+Journal.swift:") == true, "\(closings)")
  }

  /// `openTables` is an index written where a table is hosted and where it is retired, and
  /// nowhere else.
  @Test func theOpenTablesIndexIsWrittenInOnePlace() {
    let writes = Self.places(of: "openTables[").filter { $0.hasPrefix("LobbyState+Tables.swift:") }
    let all = Self.places(of: "openTables[")
    #expect(writes.count == 2, "\(all)")
    #expect(all.count == 3, "\(all): two writes and the move ticket's read")
    // So is the count of tables each session opened: one write where a table is hosted, two
    // where it is retired, one read (the per-session cap).
    let counts = Self.places(of: "openedBy[")
    #expect(counts.filter { $0.hasPrefix("LobbyState+Tables.swift:") }.count == 3, "\(counts)")
    #expect(counts.filter { $0.hasPrefix("LobbyState+Checks.swift:") }.count == 1, "\(counts)")
    #expect(counts.count == 4, "\(counts)")
  }

  /// A session's table and seat are written in one place (`LobbyState.place(_:at:)`), from
  /// what a table's host reported (`TableHost.Outcome.placed`); a table's sessions are handed
  /// on there too. No event fixes the desk up by hand.
  @Test func aSessionsTableIsWrittenInOnePlace() {
    let seats = Self.places(of: "desk.seat(")
    #expect(seats.count == 3, "\(seats): seated, watching, gone")
    #expect(seats.allSatisfy { $0.hasPrefix("LobbyState+Tables.swift:") }, "\(seats)")
    // Handing a session on: a table given up (in `place`) and a redirect to another node.
    let releases = Self.places(of: "desk.release(")
    #expect(releases.count == 2, "\(releases)")
    #expect(releases.contains { $0.hasPrefix("LobbyState+Tables.swift:") }, "\(releases)")
    #expect(releases.contains { $0.hasPrefix("LobbyState+Cluster.swift:") }, "\(releases)")
  }

  /// A move a shard decides alone is recognised in one place: only `shardMove` makes one.
  @Test func aShardMoveIsMadeInOnePlace() {
    let made = Self.places(of: "ShardMove(")
    #expect(made.count == 1, "\(made)")
    #expect(made.first?.hasPrefix("LobbyState+Moves.swift:") == true, "\(made)")
  }
}
