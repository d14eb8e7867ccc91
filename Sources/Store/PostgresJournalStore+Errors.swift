import Foundation

extension PostgresJournalStore {
  /// Whether `error` means the connection is gone (rather than a statement refused).
  static func losesConnection(_ error: any Error) -> Bool {
    switch error {
    case let error as PostgresServerError:
      // Connection exceptions and the server shutting down; and a server that no longer takes
      // writes (a primary demoted to a standby): the next connection looks for the one that does.
      let state = error.sqlState
      return state.hasPrefix("08") || state.hasPrefix("57P") || state == "25006"
    case is PostgresConnectionError, is QueryTimedOut, is ConnectionClosed:
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
    default:
      return "\(error)"
    }
  }
}
