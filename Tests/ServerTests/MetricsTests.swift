import Lobby
import Logging
import Protocol
import Store
import Testing

@testable import Server

/// What the server's metrics render after the transport and the lobby report.
@Suite struct MetricsTests {
  /// The sample lines of `metrics`' rendering, without comments. (Gauges are rendered as
  /// floating-point numbers, counters as integers.)
  private func samples(_ metrics: ServerMetrics) -> Set<String> {
    Set(metrics.render().split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
  }

  @Test func everyMetricIsPresentFromTheStartWithTheServersPrefix() {
    let metrics = ServerMetrics()
    _ = metrics.makeLobbyMetrics()
    let lines = samples(metrics)
    #expect(lines.contains("matchismo_connections_open 0.0"))
    #expect(lines.contains("matchismo_sessions 0.0"))
    #expect(lines.contains("matchismo_moves_accepted_total 0"))
    #expect(lines.contains(#"matchismo_moves_rejected_total{reason="cardNotOnTable"} 0"#))
    #expect(lines.allSatisfy { $0.hasPrefix("matchismo_") }, "\(lines)")
  }

  @Test func theLobbyExportsDifferencesSessionsAndTables() throws {
    let metrics = ServerMetrics()
    var lobby = metrics.makeLobbyMetrics()
    var state = LobbyState(entropy: .system)
    let player = ConnectionID(rawValue: 1)
    _ = state.receive(
      ClientMessageDecoder.decode(Array(#"{"type":"hello","name":"Ada"}"#.utf8)), from: player,
      now: 0)
    _ = state.receive(
      ClientMessageDecoder.decode(Array(#"{"type":"choose","card":3}"#.utf8)), from: player, now: 0)
    lobby.export(state, now: 0)
    // A second export of the same state adds nothing.
    lobby.export(state, now: 0.1)
    _ = state.receive(
      ClientMessageDecoder.decode(Array(#"{"type":"playSolo","game":"set"}"#.utf8)), from: player,
      now: 1)
    lobby.export(state, now: 1)

    let lines = samples(metrics)
    #expect(lines.contains(#"matchismo_moves_rejected_total{reason="notAtTable"} 1"#))
    #expect(lines.contains("matchismo_sessions 1.0"))
    #expect(lines.contains(#"matchismo_tables{game="set",phase="playing"} 1.0"#), "\(lines)")
    #expect(lobby.nextTableExport == nil)

    // Within the throttle interval the table count waits, and says when it is due.
    lobby.export(state, now: 1.1)
    #expect(lobby.nextTableExport == 1 + LobbyMetrics.tableExportInterval)

    // Accepted moves alone, then a refusal after them: each export adds what it missed.
    let choose = { (card: Int) in
      _ = state.receive(
        ClientMessageDecoder.decode(Array(#"{"type":"choose","card":\#(card)}"#.utf8)),
        from: player, now: 2)
    }
    let board =
      state.table(state.session(for: player)!.tableID!)!.snapshot(
        replyTo: nil, you: 0, now: 2)["table"]?["board"]?.elements ?? []
    let first = try #require(board.first?["id"]?.intValue)
    choose(first)
    lobby.export(state, now: 2)
    #expect(samples(metrics).contains("matchismo_moves_accepted_total 1"))
    choose(first)
    choose(first)
    lobby.export(state, now: 2)
    #expect(samples(metrics).contains("matchismo_moves_accepted_total 3"))
    choose(1_000)
    choose(first)
    lobby.export(state, now: 2)
    let after = samples(metrics)
    #expect(after.contains("matchismo_moves_accepted_total 4"), "\(after)")
    #expect(after.contains(#"matchismo_moves_rejected_total{reason="notAtTable"} 1"#))
    #expect(after.contains(#"matchismo_moves_rejected_total{reason="unknownCard"} 1"#), "\(after)")
  }

  @Test func aMovesLatencyEndsWhenTheTransportLetsItsFramesGo() {
    let metrics = ServerMetrics()
    metrics.transport.moveShown(receivedAt: 10.0, at: 10.001)
    metrics.transport.moveShown(receivedAt: 10.0005, at: 10.0008)
    let lines = samples(metrics)
    #expect(lines.contains("matchismo_move_broadcast_latency_seconds_count 2"))
    #expect(
      lines.contains(#"matchismo_move_broadcast_latency_seconds_bucket{le="0.0005"} 1"#),
      "\(lines.sorted())")
    #expect(lines.contains(#"matchismo_move_broadcast_latency_seconds_bucket{le="0.001"} 2"#))
  }

  @Test func theTransportCountsFramesAndClosesByCode() {
    let metrics = ServerMetrics()
    metrics.transport.connectionOpened(open: 1)
    metrics.transport.frameWritten(bytes: 100)
    metrics.transport.frameWritten(bytes: 20)
    metrics.transport.rateLimited()
    metrics.transport.closing(code: 1008)
    metrics.transport.closing(code: 1008)
    metrics.transport.closing(code: 1001)
    metrics.transport.connectionClosed(open: 0)
    metrics.transport.sampleInbound(queuedBytes: 512, pausedConnections: 2)

    let lines = samples(metrics)
    #expect(lines.contains("matchismo_connections_opened_total 1"))
    #expect(lines.contains("matchismo_connections_open 0.0"))
    #expect(lines.contains("matchismo_frames_out_total 2"))
    #expect(lines.contains("matchismo_bytes_out_total 120"))
    #expect(lines.contains("matchismo_rate_limit_closes_total 1"))
    #expect(lines.contains(#"matchismo_closes_total{code="1008"} 2"#))
    #expect(lines.contains(#"matchismo_closes_total{code="1001"} 1"#))
    #expect(lines.contains("matchismo_inbound_queued_bytes 512.0"))
    #expect(lines.contains("matchismo_inbound_paused_connections 2.0"))
  }

  /// The service loop's long passes, by its thread's CPU: none counted at 1 ms or under, the
  /// 5 ms count a part of the 1 ms one, both present (at 0) from the start.
  @Test func theLoopCountsItsLongPasses() {
    let metrics = ServerMetrics()
    #expect(samples(metrics).contains(#"matchismo_loop_long_passes_total{over="1ms"} 0"#))
    #expect(samples(metrics).contains(#"matchismo_loop_long_passes_total{over="5ms"} 0"#))
    for seconds in [0.0002, 0.001, 0.0011, 0.004, 0.005, 0.0051, 0.03] {
      metrics.transport.passTook(cpuSeconds: seconds)
    }
    let lines = samples(metrics)
    #expect(lines.contains(#"matchismo_loop_long_passes_total{over="1ms"} 5"#))
    #expect(lines.contains(#"matchismo_loop_long_passes_total{over="5ms"} 2"#))
  }

  @Test func theJournalsWriterTimesEachCommit() throws {
    let metrics = ServerMetrics()
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"),
      metrics: metrics.makeJournalMetrics()
    ) { _ in }
    writer.start()
    // One batch at a time: each waits for the one before to be written.
    for table in ["t1", "t2", "t3"] {
      let ticket = writer.append([.tableClosed(table), .tableClosed(table + "'")])
      try #require(writer.waitUntilWritten(ticket, timeout: 10), "batch \(ticket) not written")
    }
    #expect(writer.stop())

    let lines = samples(metrics)
    #expect(lines.contains("matchismo_journal_batches_total 3"), "\(lines.sorted())")
    #expect(lines.contains("matchismo_journal_entries_total 6"))
    #expect(lines.contains("matchismo_journal_commit_seconds_count 3"))
    #expect(lines.contains(#"matchismo_journal_commit_seconds_bucket{le="+Inf"} 3"#))
    #expect(lines.contains("matchismo_journal_failed_writes_total 0"))
  }
}
