import Protocol

/// The lobby's view of every table: the public list with its version, invite codes, and the
/// quick-match choice. A pure value; the lobby's ``LobbyFeed`` owns one. In a cluster it holds
/// the other nodes' tables too (``ClusterTable``), each marked ``Entry/isRemote``.
public struct TableDirectory: Sendable {
  /// One table as the directory knows it.
  public struct Entry: Hashable, Sendable {
    /// The lobby row.
    public var listing: TableListing
    /// The invite code.
    public var code: String
    /// Whether it is left out of the list.
    public var isPrivate: Bool
    /// Whether another node of the cluster holds it (``TableListing/node`` names which).
    public var isRemote = false
    /// That node's own WebSocket URL for clients, if it gives one.
    public var url: String? = nil
    /// Where the other nodes reach that node (``ClusterTable/linkURL``).
    public var linkURL: String? = nil
  }

  /// The list's version; grows by one per published change set.
  public private(set) var version = 0
  private var entries: [String: Entry] = [:]
  private var codes: [String: String] = [:]

  /// An empty directory.
  public init() {}

  /// Letters and digits for invite codes, without look-alikes (no I, O, 0, 1).
  public static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

  /// A code of `length` characters from ``codeAlphabet`` that no live table has, drawn with
  /// `random`. Ten characters hold 50 bits: with the per-session miss limit, guessing a live
  /// table's code is hopeless.
  public func newCode(length: Int = 10, using random: (Int) -> Int) -> String {
    while true {
      let code = String(
        (0..<length).map { _ in Self.codeAlphabet[random(Self.codeAlphabet.count)] })
      if codes[code] == nil { return code }
    }
  }

  /// The table id for an invite code.
  public func table(withCode code: String) -> String? { codes[code] }

  /// The entry of a table.
  public func entry(_ id: String) -> Entry? { entries[id] }

  /// This node's own tables, by id.
  public var localEntries: [Entry] {
    entries.values.filter { !$0.isRemote }.sorted { $0.listing.id < $1.listing.id }
  }

  /// The public list, oldest table first.
  public var publicListings: [TableListing] {
    entries.values.filter { !$0.isPrivate }.map(\.listing).sorted {
      ($0.id.count, $0.id) < ($1.id.count, $1.id)
    }
  }

  /// The fullest waiting public table of `game` with `seats` seats and a free seat, on any
  /// node. With `settings` (as a snapshot shows them) and `turnSeconds`, only a table set up
  /// the same way. A table where a seat is held for someone who left is passed over: the
  /// newcomer could fill it and start a game against nobody.
  public func quickMatch(
    game: String, seats: Int, settings: JSONValue? = nil, turnSeconds: Int? = nil
  ) -> String? {
    entries.values
      .filter {
        !$0.isPrivate && $0.listing.game == game && $0.listing.seats == seats
          && $0.listing.phase == .waiting && $0.listing.seated < seats && !$0.listing.hasAway
          && (settings == nil
            || ($0.listing.settings == settings && $0.listing.turnSeconds == turnSeconds))
      }
      // The fullest; among equals one of this node's (no reconnect), then the oldest (ids are
      // "t" + a growing number).
      .max {
        ($0.listing.seated, $0.isRemote ? 0 : 1, $1.listing.id.count, $1.listing.id)
          < ($1.listing.seated, $1.isRemote ? 0 : 1, $0.listing.id.count, $0.listing.id)
      }?
      .listing.id
  }

  /// Records a table's current row; returns the change to publish, or nil when nothing a lobby
  /// client sees changed.
  public mutating func update(_ listing: TableListing, code: String, isPrivate: Bool)
    -> LobbyChange?
  {
    let old = entries[listing.id]
    entries[listing.id] = Entry(listing: listing, code: code, isPrivate: isPrivate)
    codes[code] = listing.id
    guard !isPrivate, old?.listing != listing else { return nil }
    return .upsert(listing)
  }

  /// Records a table that another node holds; returns the change to publish, as
  /// ``update(_:code:isPrivate:)`` does.
  public mutating func update(remote table: ClusterTable) -> LobbyChange? {
    let change = update(table.listing, code: table.code, isPrivate: table.isPrivate)
    entries[table.id]?.isRemote = true
    entries[table.id]?.url = table.url
    entries[table.id]?.linkURL = table.linkURL
    return change
  }

  /// Every entry another node holds.
  public var remoteEntries: [Entry] { entries.values.filter(\.isRemote) }

  /// The ids of the tables that `node` holds, as far as this directory knows (every other
  /// node's with nil).
  public func remoteIDs(of node: String? = nil) -> [String] {
    entries.values.filter { $0.isRemote && (node == nil || $0.listing.node == node) }
      .map(\.listing.id)
  }

  /// Forgets a table; returns the change to publish, if it was listed.
  public mutating func remove(_ id: String) -> LobbyChange? {
    guard let entry = entries.removeValue(forKey: id) else { return nil }
    codes[entry.code] = nil
    return entry.isPrivate ? nil : .remove(id: id)
  }

  /// Takes the next version for a set of changes about to be published.
  public mutating func publish() -> Int {
    version += 1
    return version
  }
}
