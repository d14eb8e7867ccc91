import Foundation

/// What the computer players at a face-down table have seen this deal: for each bot's seat, each
/// slot whose face it saw and when (counted in faces turned up at the table). The table notes
/// what each seat sees as moves are played (and played again after a restart), so the memory is
/// a function of the deal's moves; a plan asks what a bot still recalls (``recalled(by:level:using:)``).
public struct BotMemory: Hashable, Sendable {
  /// Faces turned up at the table this deal: the clock memories age by.
  public private(set) var flips = 0
  /// By seat: slot → the flip at which its face was last seen.
  public private(set) var seen: [Int: [Int: Int]] = [:]

  /// A memory of nothing.
  public init() {}

  /// A new deal: nothing seen.
  public mutating func forget() {
    flips = 0
    seen = [:]
  }

  /// The faces in `slots` turned up (or were shown), seen by the bots in `seats`.
  public mutating func saw(_ slots: [Int], by seats: [Int]) {
    for slot in slots {
      flips += 1
      for seat in seats { seen[seat, default: [:]][slot] = flips }
    }
  }

  /// The slots whose faces the bot in `seat` recalls now, at `level`: each seen face with
  /// probability ½^(age / half life), age being the faces turned up since (all of them when the
  /// level forgets nothing), drawn from `generator` in slot order.
  public func recalled(by seat: Int, level: BotLevel, using generator: inout SeededGenerator)
    -> Set<Int>
  {
    guard let mine = seen[seat] else { return [] }
    guard let halfLife = level.memoryHalfLife else { return Set(mine.keys) }
    var kept = Set<Int>()
    for slot in mine.keys.sorted() {
      let age = Double(flips - (mine[slot] ?? flips))
      let draw = BotPlan.unit(&generator)
      if draw < exp2(-age / halfLife) { kept.insert(slot) }
    }
    return kept
  }
}
