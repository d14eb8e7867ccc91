import CPostgres
import Foundation

/// A statement the server refused, with what it said.
struct PostgresServerError: Error, CustomStringConvertible {
  /// The SQLSTATE code (`23505`, `MJ002`, …).
  let sqlState: String
  /// The server's message.
  let message: String
  /// The server's detail, if any.
  let detail: String?

  var description: String { "\(message) (SQLSTATE \(sqlState))" }
}

/// The connection could not be made, or was lost, with libpq's reason.
struct PostgresConnectionError: Error, CustomStringConvertible {
  /// libpq's reason, without the server's name and port (the caller names the server).
  let description: String

  init(_ reason: String) {
    var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
    // "connection to server at "127.0.0.1", port 5432 failed: FATAL:  …"
    if text.hasPrefix("connection to server"), let colon = text.range(of: " failed: ") {
      text = String(text[colon.upperBound...])
    }
    if text.hasPrefix("FATAL:") {
      text = String(text.dropFirst("FATAL:".count)).trimmingCharacters(in: .whitespaces)
    }
    // libpq's hints ("Is the server running on that host…") follow on lines of their own.
    description = String(text.split(separator: "\n").first ?? "the connection failed")
  }

  /// The reason libpq gives for `connection`'s last failure.
  init(libpq connection: OpaquePointer) {
    self.init(String(cString: PQerrorMessage(connection)))
  }
}
