import ArgumentParser
import Logging

/// The `matchismo` command: parses options and runs the server until SIGINT or SIGTERM.
@main
struct Matchismo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchismo",
    abstract: "Matchismo Live: a real-time multiplayer Set server with a browser client.")

  @Option(help: "Interface to listen on (0.0.0.0 for every interface).")
  var host = "127.0.0.1"

  @Option(help: "Port for HTTP and WebSocket (0 picks a free one).")
  var port = 8080

  @Option(help: "Folder of the web client, served at /.")
  var webRoot = "web-client"

  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel: Logger.Level = .info

  @Option(help: "PEM certificate: serve https and wss (needs --tls-key).")
  var tlsCert: String?

  @Option(help: "PEM private key for --tls-cert.")
  var tlsKey: String?

  @Option(help: "Largest message a client may send, in bytes.")
  var maxMessageBytes = 8192

  @Option(help: "Seconds a dropped player's session is kept for a resume.")
  var reconnectGrace: Double = 60

  @Option(help: "Seconds of countdown between a table's start and its deal.")
  var countdown: Double = 3

  @Option(help: "Seconds a table with nobody seated stays open.")
  var emptyTableGrace: Double = 10

  @Option(help: "Most spectators at one table.")
  var spectatorLimit = 50

  @Option(
    help:
      "Threads that run the lobby and its tables: 0 decides every message on the transport's thread (no hop per move), 1 on a thread of its own."
  )
  var executors = 0

  @Option(help: "Messages per second one connection may send (bursts of twice as many).")
  var rateLimit: Double = 20

  @Option(
    help: ArgumentHelp(
      "A browser origin (scheme://host[:port]) allowed to open WebSockets besides the page's own; repeatable. '*' allows any.",
      valueName: "origin"))
  var allowedOrigin: [String] = []

  /// Longest time any option may name: a day. More makes no sense for a game and would
  /// overflow the clocks' arithmetic.
  static let longestSeconds: Double = 86_400

  func validate() throws {
    if (tlsCert == nil) != (tlsKey == nil) {
      throw ValidationError("--tls-cert and --tls-key go together.")
    }
    if !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535.") }
    if !(256...(16 << 20)).contains(maxMessageBytes) {
      throw ValidationError("--max-message-bytes must be 256...16777216.")
    }
    try Self.check(reconnectGrace, "--reconnect-grace", allowsZero: false)
    try Self.check(countdown, "--countdown", allowsZero: true)
    try Self.check(emptyTableGrace, "--empty-table-grace", allowsZero: false)
    if !(0...1).contains(executors) { throw ValidationError("--executors must be 0 or 1.") }
    if spectatorLimit < 1 { throw ValidationError("--spectator-limit must be at least 1.") }
    // No upper bound: benchmarks lift the limit with a huge value (a closed loop).
    guard rateLimit.isFinite, rateLimit > 0 else {
      throw ValidationError("--rate-limit must be a positive number of messages per second.")
    }
    for origin in allowedOrigin {
      if let problem = OriginPolicy.problem(withAllowedOrigin: origin) {
        throw ValidationError("--allowed-origin: \(problem).")
      }
    }
  }

  /// Refuses a number of seconds that is not finite, negative, zero (unless `allowsZero`), or
  /// longer than `longestSeconds`.
  private static func check(_ seconds: Double, _ name: String, allowsZero: Bool) throws {
    let lowest = allowsZero ? "0" : "more than 0"
    guard seconds.isFinite, allowsZero ? seconds >= 0 : seconds > 0, seconds <= longestSeconds
    else {
      throw ValidationError(
        "\(name) must be a number of seconds, \(lowest) and at most \(Int(longestSeconds)).")
    }
  }

  func run() async throws {
    let options = ServerOptions(
      host: host, port: port, webRoot: webRoot, logLevel: logLevel, tlsCertificatePath: tlsCert,
      tlsPrivateKeyPath: tlsKey, maxMessageBytes: maxMessageBytes, reconnectGrace: reconnectGrace,
      countdown: countdown, emptyTableGrace: emptyTableGrace, spectatorLimit: spectatorLimit,
      executors: executors, rateLimit: rateLimit, allowedOrigins: allowedOrigin)
    try await Application(options: options).run()
  }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
