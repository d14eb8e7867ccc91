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

/// Close codes the lobby uses, as documented in `docs/PROTOCOL.md`.
public enum CloseCode {
  /// Another connection resumed this connection's session.
  public static let sessionTakenOver: UInt16 = 4001
  /// The table moved to another node of the cluster while this node was away (frozen, or cut
  /// off from the database): come back through the front door, which sends you there.
  public static let tableMoved: UInt16 = 4005
}
