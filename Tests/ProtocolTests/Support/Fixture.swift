import Foundation
import Protocol
import Testing

/// The JSON files in `Fixtures/`, copied into the test bundle.
enum Fixture {
  /// The bundle's copy of the `Fixtures` folder.
  static func root() throws -> URL {
    try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
  }

  /// The exact bytes of `path` (relative to `Fixtures/`).
  static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: root().appending(path: path)))
  }

  /// The text of `path`.
  static func text(_ path: String) throws -> String {
    String(decoding: try bytes(path), as: UTF8.self)
  }

  /// `path` parsed as JSON.
  static func json(_ path: String) throws -> JSONValue {
    try #require(JSONValue.parse(bytes(path)), "\(path) is not valid JSON")
  }

  /// The names of the files in `folder`, sorted.
  static func files(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: root().appending(path: folder).path)
      .sorted()
  }
}

extension JSONValue {
  /// Calls `body` with every object in this value (itself included), depth first.
  func forEachObject(_ body: ([(String, JSONValue)]) -> Void) {
    switch self {
    case .object(let members):
      body(members)
      for (_, value) in members { value.forEachObject(body) }
    case .array(let items):
      for item in items { item.forEachObject(body) }
    default:
      break
    }
  }
}
