import Foundation

/// The cores this process may run on: those of its CPU affinity (`taskset`, a container's
/// cpuset), which Foundation's `activeProcessorCount` does not look at. A server started on 8
/// of 16 cores took 15 executor threads for them.
enum UsableCores {
  /// How many cores the calling thread may run on (its `Cpus_allowed` in
  /// `/proc/thread-self/status`; a new thread inherits its creator's); the machine's active
  /// processors where that cannot be read.
  static var count: Int {
    if let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8),
      let cores = cores(inStatus: status)
    {
      return cores
    }
    return ProcessInfo.processInfo.activeProcessorCount
  }

  /// The cores of the `Cpus_allowed` line of a `/proc/…/status` text (a hexadecimal mask in
  /// comma-separated groups of 32 bits); nil without one, or with none allowed.
  static func cores(inStatus status: String) -> Int? {
    guard
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
    else { return nil }
    var cores = 0
    for character in line.dropFirst("Cpus_allowed:".count) where character != "," {
      if character == " " || character == "\t" { continue }
      guard let digit = character.hexDigitValue else { return nil }
      cores += digit.nonzeroBitCount
    }
    return cores > 0 ? cores : nil
  }
}
