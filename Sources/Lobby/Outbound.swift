/// Identifies one client connection for the life of the process.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
  /// The transport's number for the connection.
  public let rawValue: UInt64

  /// Wraps a transport's connection number.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// Wraps a transport's connection number.
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  public var description: String { "c\(rawValue)" }
}

/// Where the lobby and tables send what they have to say. The server's transport implements
/// it; tests use an in-memory recorder. Calls must not block: the transport queues the bytes.
public protocol Outbound: Sendable {
  /// Sends one encoded message to every connection in `connections`.
  func send(_ message: [UInt8], to connections: [ConnectionID])
  /// Closes a connection with a WebSocket close code, after what was already queued.
  func close(_ connection: ConnectionID, code: UInt16, reason: String)
}

/// Close codes the lobby uses, as documented in `docs/PROTOCOL.md`.
public enum CloseCode {
  /// Another connection resumed this connection's session.
  public static let sessionTakenOver: UInt16 = 4001
}
