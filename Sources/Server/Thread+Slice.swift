import CEventPass
import Foundation

extension Thread {
  /// Puts the calling thread under the default policy with a short scheduler slice
  /// (``shortSliceNanoseconds``, Linux's custom slice since 6.12; an older kernel takes the
  /// default policy alone): when it wakes, it takes a busy core at once, runs a little, and
  /// leaves it. Returns whether the system took it (elsewhere: false, nothing changed).
  ///
  /// For the journal's writer while a crowd's fan-out holds the service thread pass after pass
  /// (``JournalWriter``): under the batch policy (``becomeBatch()``) its wakes waited for a
  /// core that never came free, up to milliseconds, with the moves' frames held behind them.
  /// And for the service thread itself while it does (``ServiceLoop/serveCrowds()``): a thread
  /// that wakes on its core (the writer, a player's own client on the same machine) waits for
  /// a tenth of a millisecond of the fan-out rather than for the default slice's 0.75 ms.
  @discardableResult
  static func askShortSlice() -> Bool {
    #if os(Linux)
      writer_urgency_ask_slice(shortSliceNanoseconds) == 0
    #else
      false
    #endif
  }

  /// Puts the calling thread back under the default policy with the default slice.
  @discardableResult
  static func askDefaultSlice() -> Bool {
    #if os(Linux)
      writer_urgency_ask_slice(0) == 0
    #else
      false
    #endif
  }

  /// The short slice: 0.1 ms, the shortest Linux allows (a commit of a few moves is shorter).
  static let shortSliceNanoseconds: UInt64 = 100_000
}
