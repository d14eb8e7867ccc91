import Lobby
import Protocol

/// Runs a ``LobbyState`` the way the server's executor does — each event, then whatever is due
/// at the same moment — and records the actions in an ``OutboundRecorder``.
final class LobbyDriver: @unchecked Sendable {
  /// The state machine under test.
  private(set) var state: LobbyState
  private let outbound: OutboundRecorder
  private let now: @Sendable () -> Double

  init(state: LobbyState, outbound: OutboundRecorder, now: @escaping @Sendable () -> Double) {
    self.state = state
    self.outbound = outbound
    self.now = now
  }

  /// A message from `connection`.
  func received(_ bytes: [UInt8], from connection: ConnectionID) {
    outbound.record(state.receive(ClientMessageDecoder.decode(bytes), from: connection, now: now()))
    tick()
  }

  /// `connection` comes from `address`, as the transport tells the lobby before its first
  /// message.
  func connected(_ connection: ConnectionID, from address: String) {
    state.noteAddress(address, of: connection)
  }

  /// News from the cluster; returns what the lobby decided.
  @discardableResult
  func heard(_ news: ClusterNews) -> [LobbyAction] {
    state.handle(.cluster(news), now: now())
  }

  /// `connection` has gone.
  func disconnected(_ connection: ConnectionID) {
    outbound.record(state.disconnected(connection, now: now()))
    tick()
  }

  /// Moves the lobby to the clock's time: everything due happens.
  func tick() {
    outbound.record(state.advance(to: now()))
  }

  /// Open tables.
  var tableCount: Int { state.tableCount }

  /// Sessions, attached or waiting for a resume.
  var sessionCount: Int { state.sessionCount }
}
