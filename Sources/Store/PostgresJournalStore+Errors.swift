import Foundation
import PostgresNIO

extension PostgresJournalStore {
  /// Whether `error` means the connection is gone (rather than a statement refused).
  static func losesConnection(_ error: any Error) -> Bool {
    switch error {
    case let error as PSQLError:
      guard error.code == .server else { return true }
      // Connection exceptions and the server shutting down; and a server that no longer takes
      // writes (a primary demoted to a standby): the next connection looks for the one that does.
      let state = error.serverInfo?[.sqlState] ?? ""
      return state.hasPrefix("08") || state.hasPrefix("57P") || state == "25006"
    case is QueryTimedOut, is ConnectionClosed:
      // Its connection is closed, or being closed.
      return true
    case is StoreError, is PostgresDecodingError, is DecodingError, is EncodingError:
      return false
    default:
      return true
    }
  }

  /// What went wrong, in words for an operator: the server's message, or why the connection
  /// failed. Never the query or its values.
  static func reason(_ error: any Error) -> String {
    switch error {
    case let error as StoreError:
      return error.message
    case let error as PSQLError:
      if let info = error.serverInfo {
        let message = info[.message] ?? "an error"
        return info[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
      }
      if let underlying = error.underlying { return reason(underlying) }
      switch error.code {
      case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
      case .clientClosedConnection: return "the connection was closed"
      default: return "\(error.code)"
      }
    case let error as IOError:
      return String(cString: strerror(error.errnoCode))
    case let error as NIOConnectionError:
      if let failure = error.connectionErrors.first { return "\(failure.error)" }
      if let failure = error.dnsAAAAError ?? error.dnsAError {
        return "cannot resolve \(error.host): \(failure)"
      }
      return "cannot connect to \(error.host):\(error.port)"
    case let error as PostgresDecodingError:
      return "unexpected \(error.postgresType) in column \(error.columnName)"
    default:
      return "\(error)"
    }
  }
}
