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

  func validate() throws {
    if (tlsCert == nil) != (tlsKey == nil) {
      throw ValidationError("--tls-cert and --tls-key go together.")
    }
    if !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535.") }
    if maxMessageBytes < 256 { throw ValidationError("--max-message-bytes must be at least 256.") }
  }

  func run() async throws {
    let options = ServerOptions(
      host: host, port: port, webRoot: webRoot, logLevel: logLevel, tlsCertificatePath: tlsCert,
      tlsPrivateKeyPath: tlsKey, maxMessageBytes: maxMessageBytes, reconnectGrace: reconnectGrace,
      countdown: countdown, emptyTableGrace: emptyTableGrace, spectatorLimit: spectatorLimit)
    try await Application(options: options).run()
  }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
