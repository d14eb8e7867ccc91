/// Identifies one client connection for the life of the process.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
  /// The transport's number for the connection.
  public let rawValue: UInt64

  /// Wraps a transport's connection number.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// Wraps a transport's connection number.
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  public var description: String { isLink ? "link\(rawValue & ~Self.linkBit)" : "c\(rawValue)" }

  /// The id of this node's `number`th link to another node (a connection this node opens,
  /// rather than a client's): the top bit set, which no client's id reaches.
  public static func link(_ number: UInt64) -> ConnectionID {
    ConnectionID(rawValue: linkBit | number)
  }

  /// Whether this is a link's id (``link(_:)``).
  public var isLink: Bool { rawValue & Self.linkBit != 0 }

  private static let linkBit: UInt64 = 1 << 63
}

/// Close codes the lobby uses, as documented in `docs/PROTOCOL.md`.
public enum CloseCode {
  /// Another connection resumed this connection's session.
  public static let sessionTakenOver: UInt16 = 4001
  /// The table moved to another node of the cluster while this node was away (frozen, or cut
  /// off from the database): come back through the front door, which sends you there.
  public static let tableMoved: UInt16 = 4005
}
