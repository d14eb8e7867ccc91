/// The arenas an operator schedules (`--arena-schedule`): one arena of ``game``, ``minutes``
/// long, every ``every`` minutes on the clock (aligned to the Unix epoch: every 60 minutes is on
/// the hour, UTC). Written `EVERY/LENGTH/GAME` (`60/10/set`, the default), or `off`.
public struct ArenaSchedule: Hashable, Sendable {
  /// Minutes between starts.
  public var every: Int
  /// Minutes each arena lasts.
  public var minutes: Int
  /// The game played.
  public var game: String

  /// A 10-minute Set arena every hour on the hour.
  public static let hourly = ArenaSchedule(every: 60, minutes: 10, game: "set")

  /// A schedule.
  public init(every: Int, minutes: Int, game: String) {
    self.every = every
    self.minutes = minutes
    self.game = game
  }

  /// The schedule `text` writes (`EVERY/LENGTH/GAME`), nil for `off`; throws a sentence saying
  /// what is wrong.
  public static func parse(_ text: String) throws(ArenaScheduleError) -> ArenaSchedule? {
    if text == "off" { return nil }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, let every = Int(parts[0]), let minutes = Int(parts[1]),
      (5...1440).contains(every), (1...60).contains(minutes), minutes < every,
      !parts[2].isEmpty
    else {
      throw ArenaScheduleError(
        "an arena schedule is EVERY/LENGTH/GAME in minutes (EVERY 5-1440, LENGTH 1-60 and "
          + "shorter than EVERY), like 60/10/set, or off")
    }
    return ArenaSchedule(every: every, minutes: minutes, game: parts[2])
  }

  /// The schedule as `--arena-schedule` writes it.
  public var text: String { "\(every)/\(minutes)/\(game)" }

  /// The start of the first arena at or after `wall` (Unix seconds).
  public func nextStart(atOrAfter wall: Double) -> Double {
    let period = Double(every * 60)
    return (wall / period).rounded(.up) * period
  }
}

/// A schedule that cannot be read, and why.
public struct ArenaScheduleError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
