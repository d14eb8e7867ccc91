// swift-tools-version: 6.1
import PackageDescription

/// One list of Swift settings for every target.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  // The engine is generic (CardMatchingGame<Card>) and used from other modules: without this,
  // release builds run it unspecialized (metadata look-ups and witness calls on every move).
  // Release builds skip the run-time exclusivity checks (the compile-time ones stay, and debug
  // builds — every test — keep both): on the service loop's class properties they were ~4,000 of
  // 55,000 instructions per move (scripts/callgrind-moves.sh).
  .unsafeFlags(
    ["-cross-module-optimization", "-enforce-exclusivity=unchecked"],
    .when(configuration: .release)),
]

/// The engine's modules (the game, the wire, the lobby) are optimised in debug builds too: the
/// unit tests and the end-to-end tests' servers spend most of their time in them, and at -Onone
/// `swift test` took 98 s of wall time and 166 s of CPU, at -O 46 s and 68 s. They keep what
/// a debug build checks (`-enable-testing` for `@testable import`, exclusivity, overflow,
/// preconditions; the engine has no `assert`); the other modules stay at -Onone.
///
/// Each is compiled as a whole module (`-wmo`) on two threads (which writes one object file per
/// source, as SwiftPM expects): batch mode type-checked and optimised each file's batch apart,
/// and the four modules took 115-120 s of CPU against 91 s whole (alternating runs of
/// `swift build --target Lobby` and `--target LoadKit`, docs/BENCHMARKS.md). The price: a change
/// to one of their files compiles its whole module again (Lobby: some 35 s) rather than the file.
let wholeModule = ["-wmo", "-num-threads", "2", "-disable-batch-mode"]
let engineSettings =
  swiftSettings + [.unsafeFlags(["-O"] + wholeModule, .when(configuration: .debug))]

/// The test modules are compiled whole too, at -Onone: batch mode parsed every file of a module
/// in each batch and emitted its interface in a job of its own, and the six test modules took
/// 202-203 s of CPU (113-118 s of wall on 2 cores) against 158-168 s (97-105 s) whole,
/// alternating (`rm -rf` of their build folders, then `swift build --build-tests -Xswiftc -gnone
/// -Xcc -g0`, docs/BENCHMARKS.md). They are half of the first `make test`'s build. The same
/// price: a change to one test file compiles its module again.
let testSettings = swiftSettings + [.unsafeFlags(wholeModule, .when(configuration: .debug))]

let package = Package(
  name: "matchismo-live",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "matchismo", targets: ["Server"]),
    .executable(name: "matchismo-load", targets: ["LoadGenerator"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CWebSockets",
      pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev", "libssl-dev"])]
    ),
    // SQLite's C library, for the embedded journal (`SQLiteConnection`). (GRDB was 36 s of the
    // debug build's 435 s of CPU, the largest package, for a connection, a statement cache
    // and migrations that take some 400 lines here.)
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // PostgreSQL's own client library, for the journal and the cluster's link. (postgres-nio
    // brought NIO, NIOSSL and swift-crypto, with two copies of BoringSSL: 452 s of the debug
    // build's 650-700 s of CPU, for what libpq, one Debian package, does.)
    .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // SHA-256 and SHA-1 from OpenSSL's libcrypto, which libwebsockets links already.
    .systemLibrary(name: "CDigest", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // The transport's bounds on one pass of its event loop (`EventPass`): C, for `epoll_wait`.
    .target(name: "CEventPass"),
    .target(name: "Model", swiftSettings: engineSettings),
    .target(name: "Protocol", dependencies: ["Model"], swiftSettings: engineSettings),
    .target(
      name: "Lobby",
      dependencies: ["Protocol", "Model", .product(name: "Logging", package: "swift-log")],
      swiftSettings: engineSettings
    ),
    .target(
      name: "Store",
      dependencies: [
        "Lobby", "Model", "Protocol", "CSQLite", "CPostgres", "CDigest",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "Server",
      dependencies: [
        "Lobby", "Protocol", "Model", "Store", "CWebSockets", "CEventPass",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: swiftSettings
    ),
    .systemLibrary(name: "CLoadSystem"),
    // Optimised in debug builds too: the end-to-end tests time the server with it, and at
    // -Onone reading a crowd's frames took a core of its own (2,000 spectators: the load
    // generator at ~100 % of a core beside the server's ~90 %), so on two cores it measured
    // its own backlog as the spectators' delay.
    .target(
      name: "LoadKit",
      dependencies: [
        "Model", "CLoadSystem", "CDigest",
        .product(name: "Histogram", package: "hdrhistogram-swift"),
      ],
      swiftSettings: engineSettings),
    .executableTarget(
      name: "LoadGenerator",
      dependencies: [
        "LoadKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "TestSupport", dependencies: ["Model", "Protocol"], path: "Tests/TestSupport",
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ModelTests", dependencies: ["Model", "TestSupport"], swiftSettings: testSettings),
    .testTarget(
      name: "ProtocolTests", dependencies: ["Protocol", "Model", "TestSupport"],
      resources: [.copy("Fixtures")], swiftSettings: testSettings),
    .testTarget(
      name: "LobbyTests",
      dependencies: [
        "Lobby", "Protocol", "Model", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: testSettings),
    .testTarget(
      name: "StoreTests",
      dependencies: [
        "Store", "Lobby", "Model", "Protocol", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: testSettings),
    // LoadGenerator: its options' defaults are checked against LoadKit's (LoadOptionTests).
    .testTarget(
      name: "LoadKitTests", dependencies: ["LoadKit", "LoadGenerator", "Model"],
      swiftSettings: testSettings),
    // LoadKit: the load generator's defaults are checked against the server's (ServerOptionTests).
    .testTarget(
      name: "ServerTests", dependencies: ["Server", "LoadKit", "TestSupport", "CEventPass"],
      swiftSettings: testSettings),
  ]
)
