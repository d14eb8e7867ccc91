import Protocol

/// The lobby list as its watchers see it: the directory of tables (public rows, invite codes,
/// quick match), who watches the list, and the changes waiting to go out as one coalesced
/// `lobbyDiff`. A pure value; the ``LobbyState`` owns one, tells it when a table's row changes
/// and schedules the flushes it asks for.
struct LobbyFeed: Sendable {
  /// Every table's row and invite code.
  private(set) var directory = TableDirectory()
  /// Connections subscribed to the list.
  private(set) var watchers: Set<ConnectionID> = []
  /// Tables with a change not yet published, in the order they first changed.
  private var pendingOrder: [String] = []
  /// The latest unpublished change of each table in `pendingOrder`.
  private var pendingChanges: [String: LobbyChange] = [:]
  /// Whether a flush is scheduled (asked for and not yet done).
  private var flushScheduled = false
  /// When changes last went out.
  private var lastFlush = -Double.infinity
  /// The snapshot, encoded once per directory version.
  private var snapshots = LobbySnapshotEncoder()
  /// Changes go out at most this often, in seconds.
  let flushInterval: Double
  /// Whether this node's table changes are published to the cluster (``takePublications()``).
  let publishes: Bool
  /// This node's tables changed since the last ``takePublications()``, in the order they first
  /// changed, with the latest change of each.
  private var publicationOrder: [String] = []
  private var publications: [String: ClusterChange] = [:]
  /// Another node's row for a table this node still holds (that node took it over while this
  /// one was away, and published it before this one heard): shown once this node gives the
  /// table up (``forget(_:now:)``). At most one per table of this node's.
  private var shadowed: [String: ClusterTable] = [:]

  /// An empty list whose changes go out at most every `flushInterval` seconds, and to the
  /// cluster when it `publishes`.
  init(flushInterval: Double, publishes: Bool = false) {
    self.flushInterval = flushInterval
    self.publishes = publishes
  }

  // MARK: - Watchers

  /// `connection` watches the list (it has just been sent a snapshot).
  mutating func watch(_ connection: ConnectionID) {
    watchers.insert(connection)
  }

  /// `connection` no longer watches the list (it sat at a table, or it has gone).
  mutating func unwatch(_ connection: ConnectionID) {
    watchers.remove(connection)
  }

  // MARK: - Rows

  /// Records table `listing`'s row at `now`. Returns when the lobby must schedule a flush, if
  /// it must (none is scheduled yet and a watcher sees the change).
  mutating func update(_ listing: TableListing, code: String, isPrivate: Bool, now: Double)
    -> Double?
  {
    if publishes {
      let table = ClusterTable(listing: listing, code: code, isPrivate: isPrivate)
      let old = directory.entry(listing.id)
      if old?.listing != listing || old?.code != code || old?.isPrivate != isPrivate {
        publish(.upsert(table))
      }
    }
    guard let change = directory.update(listing, code: code, isPrivate: isPrivate) else {
      return nil
    }
    return queue(change, of: listing.id, now: now)
  }

  /// Forgets table `id` at `now`; returns when to schedule a flush, as
  /// ``update(_:code:isPrivate:now:)`` does.
  mutating func remove(_ id: String, now: Double) -> Double? {
    if publishes, directory.entry(id).map({ !$0.isRemote }) == true { publish(.remove(id: id)) }
    shadowed[id] = nil
    guard let change = directory.remove(id) else { return nil }
    return queue(change, of: id, now: now)
  }

  /// Forgets table `id` at `now` without publishing it to the cluster (another node holds it
  /// now and publishes it); returns when to schedule a flush.
  mutating func forget(_ id: String, now: Double) -> Double? {
    publications[id] = nil
    publicationOrder.removeAll { $0 == id }
    var flush: Double? = nil
    if let change = directory.remove(id) { flush = queue(change, of: id, now: now) }
    // The node that holds it now published it already: list it as that node's.
    if let table = shadowed.removeValue(forKey: id) {
      flush = hear(.upsert(table), now: now) ?? flush
    }
    return flush
  }

  // MARK: - The cluster

  /// Records `change` of another node's tables at `now`; returns when to schedule a flush, as
  /// ``update(_:code:isPrivate:now:)`` does. A change to a table of this node's is not
  /// another's to make: it is ignored.
  mutating func hear(_ change: ClusterChange, now: Double) -> Double? {
    if let entry = directory.entry(change.id), !entry.isRemote {
      if case .upsert(let table) = change {
        shadowed[table.id] = table
      } else {
        shadowed[change.id] = nil
      }
      return nil
    }
    switch change {
    case .upsert(let table):
      guard let change = directory.update(remote: table) else { return nil }
      return queue(change, of: table.id, now: now)
    case .remove(let id):
      guard let change = directory.remove(id) else { return nil }
      return queue(change, of: id, now: now)
    }
  }

  /// Another node's row of `id`, a table or arena this node holds too (heard, not listed).
  func shadow(of id: String) -> ClusterTable? { shadowed[id] }

  /// Publishes this node's row of `id` again, as it is, and forgets the other node's shadow of
  /// it: the row the cluster's directory keeps is this node's.
  mutating func republish(_ id: String) {
    shadowed[id] = nil
    guard publishes, let entry = directory.entry(id), !entry.isRemote else { return }
    publish(
      .upsert(ClusterTable(listing: entry.listing, code: entry.code, isPrivate: entry.isPrivate)))
  }

  /// Every entry another node holds.
  var remoteEntries: [TableDirectory.Entry] { directory.remoteEntries }

  /// Another node's table `id`, if this directory lists it.
  func remoteEntry(_ id: String) -> TableDirectory.Entry? {
    directory.entry(id).flatMap { $0.isRemote ? $0 : nil }
  }

  /// This node's table changes since the last call, or nil when there are none.
  mutating func takePublications() -> [ClusterChange]? {
    guard !publicationOrder.isEmpty else { return nil }
    defer {
      publicationOrder = []
      publications = [:]
    }
    return publicationOrder.compactMap { publications[$0] }
  }

  /// Every table of this node's, as a publication (when the node starts publishing).
  func allPublications() -> [ClusterChange] {
    directory.localEntries.map {
      .upsert(ClusterTable(listing: $0.listing, code: $0.code, isPrivate: $0.isPrivate))
    }
  }

  private mutating func publish(_ change: ClusterChange) {
    if publications.updateValue(change, forKey: change.id) == nil {
      publicationOrder.append(change.id)
    }
  }

  private mutating func queue(_ change: LobbyChange, of id: String, now: Double) -> Double? {
    if pendingChanges.updateValue(change, forKey: id) == nil { pendingOrder.append(id) }
    guard !flushScheduled else { return nil }
    flushScheduled = true
    return max(now, lastFlush + flushInterval)
  }

  /// Publishes the pending changes, at `now`, as one `lobbyDiff` for the watchers (nil when
  /// nothing changed or nobody watches). The lobby unschedules the flush.
  mutating func flush(now: Double) -> (frame: Frame, to: [ConnectionID])? {
    flushScheduled = false
    guard !pendingOrder.isEmpty else { return nil }
    let changes = pendingOrder.compactMap { pendingChanges[$0] }
    pendingOrder = []
    pendingChanges = [:]
    lastFlush = now
    let version = directory.publish()
    guard !watchers.isEmpty else { return nil }
    return (Frame(ServerMessage.lobbyDiff(version: version, changes: changes)), Array(watchers))
  }

  /// The whole public list answering `replyTo`, at the version last published.
  mutating func snapshot(replyTo: MessageID?) -> Frame {
    let directory = self.directory
    return snapshots.frame(replyTo: replyTo, version: directory.version) {
      directory.publicListings
    }
  }

  // MARK: - Finding tables

  /// The public table a quick match for `game` with `seats` seats goes to, if any; with
  /// `setup`, only one set up the same way.
  func quickMatch(game: String, seats: Int, setup: TableSetup? = nil) -> String? {
    directory.quickMatch(
      game: game, seats: seats,
      settings: setup.map {
        ServerMessage.settings($0.settings, selectionsHidden: !$0.showSelections)
      },
      turnSeconds: setup?.turnSeconds)
  }

  /// A fresh invite code of `length` characters, drawn with `random`.
  func newCode(length: Int, using random: (Int) -> Int) -> String {
    directory.newCode(length: length, using: random)
  }

  /// The table whose invite code is `code`.
  func table(withCode code: String) -> String? { directory.table(withCode: code) }

  /// Whether table `id` is listed publicly.
  func isPublic(_ id: String) -> Bool { directory.entry(id).map { !$0.isPrivate } ?? false }

  /// The ids of the tables that other nodes hold (`node`'s alone, when it is given).
  func remoteIDs(of node: String? = nil) -> [String] { directory.remoteIDs(of: node) }
}
