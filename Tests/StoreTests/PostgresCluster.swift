import Foundation
import Logging
import Store
import Synchronization

/// A PostgreSQL server of the tests' own: a fresh cluster (`initdb`) in a temporary folder, on a
/// free loopback port, with its socket in that folder, run as Debian's `postgres` user when the
/// tests run as root (PostgreSQL refuses root). It is stopped and removed when the test process
/// exits, and, should the process die first, by a watchdog process that waits for it.
///
/// The tests share ``shared`` and take a fresh database each (``newDatabase()``); a test that
/// stops its server makes a cluster of its own. Without PostgreSQL (`make test` installs
/// Debian's `postgresql`) making a cluster throws, so that its tests fail saying so.
final class PostgresCluster: Sendable {
  /// The superuser the clusters are made with (trusted on loopback, no password).
  static let user = "mlive"

  /// The cluster the tests share, started by the first that asks.
  static let shared = Result { try PostgresCluster() }

  /// The clusters still to stop at exit.
  private static let running = Mutex<[ObjectIdentifier: PostgresCluster]>([:])
  private static let stopsAtExit: Void = {
    atexit { PostgresCluster.stopAll() }
  }()

  /// Holds the cluster, its socket and its log.
  let folder: String
  /// The loopback port it listens on.
  let port: Int
  private let binaries: String
  private let runAs: [String]
  private let databases = Atomic<Int>(0)

  /// A logger for the stores under test that prints nothing.
  static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

  /// Makes a cluster and starts it.
  init() throws {
    binaries = try Self.binaries()
    folder = try Self.temporaryFolder()
    let asRoot = geteuid() == 0
    runAs = asRoot ? ["runuser", "-u", "postgres", "--"] : []
    if asRoot {
      guard chown(folder, try Self.uid(of: "postgres"), gid_t(bitPattern: -1)) == 0 else {
        throw StoreError("cannot give \(folder) to the user postgres")
      }
    }
    port = try Self.freePort()
    try tool(
      "initdb", "-D", folder + "/data", "-U", Self.user, "--auth=trust", "-E", "UTF8",
      "--no-sync")
    _ = Self.stopsAtExit
    Self.running.withLock { $0[ObjectIdentifier(self)] = self }
    try watch()
    try start()
  }

  /// Starts the server (again).
  func start() throws {
    try tool(
      "pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
      "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off", "start")
  }

  /// Stops the server (a fast shutdown: clients are disconnected, nothing is lost).
  func stop() throws {
    try tool("pg_ctl", "-D", folder + "/data", "-m", "fast", "-w", "stop")
  }

  /// A new, empty database.
  func newDatabase() throws -> PostgresLocation {
    let name = "test\(databases.add(1, ordering: .relaxed).newValue)"
    try tool("createdb", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, name)
    return try PostgresLocation(url: "postgres://\(Self.user)@127.0.0.1:\(port)/\(name)")
  }

  /// Stops the server at once and removes its folder.
  func destroy() {
    Self.running.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
    try? tool("pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop")
    try? FileManager.default.removeItem(atPath: folder)
  }

  private static func stopAll() {
    for cluster in running.withLock({ Array($0.values) }) { cluster.destroy() }
  }

  /// A process that stops the server and removes its folder once this process is gone, however
  /// it ended.
  private func watch() throws {
    let stop = (runAs + [binaries + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "stop"])
      .joined(separator: " ")
    _ = try Self.spawn(
      [
        "/bin/sh", "-c",
        "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop); rm -rf \(folder)",
      ], output: "/dev/null")
  }

  /// Runs one of PostgreSQL's programs (as `postgres` when root) and waits for it; throws what
  /// it printed if it fails.
  private func tool(_ name: String, _ arguments: String...) throws {
    let output = folder + "/\(name)-\(UUID().uuidString).out"
    defer { try? FileManager.default.removeItem(atPath: output) }
    let child = try Self.spawn(runAs + [binaries + "/" + name] + arguments, output: output)
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else {
      let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      throw StoreError("\(name) failed (wait status \(status)): \(printed)")
    }
  }

  /// Starts `arguments` with no input, its output appended to the file `output`, and none of
  /// this process's other file descriptors: the server that pg_ctl leaves running must not
  /// hold any of them (the test runner waits for its pipes to close). Foundation's `Process` is
  /// not used: on Linux its `waitUntilExit` did not return once pg_ctl had started the server.
  private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
      // One closed meanwhile by another thread is skipped by the child.
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child = pid_t()
    let result = posix_spawnp(&child, arguments[0], &actions, nil, argv, environ)
    guard result == 0 else {
      throw StoreError("cannot run \(arguments[0]): \(String(cString: strerror(result)))")
    }
    return child
  }

  /// The newest PostgreSQL's programs, as Debian installs them.
  private static func binaries() throws -> String {
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
      .filter { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
      .sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
    guard let newest = versions.last else {
      throw StoreError(
        "PostgreSQL is not installed (no \(root)/*/bin/initdb): the postgres store's tests need it; `make test` installs Debian's postgresql"
      )
    }
    return "\(root)/\(newest)/bin"
  }

  private static func temporaryFolder() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/matchismo-pg-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw StoreError("cannot make a folder") }
    // The server's files live in it: readable by its owner only, as initdb wants.
    return String(cString: made)
  }

  private static func uid(of user: String) throws -> uid_t {
    guard let entry = getpwnam(user) else {
      throw StoreError("no user \(user) (Debian's postgresql package makes it)")
    }
    return entry.pointee.pw_uid
  }

  /// A loopback port that nothing listens on now.
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw StoreError("no socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
      }
    }
    guard bound else { throw StoreError("cannot bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
