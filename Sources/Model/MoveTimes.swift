/// When each move of a game was made, in seconds into play, to the tenth of a second (as a
/// game's record and its history show them), in about a byte a move: what a live table keeps
/// beside its ``MoveLog`` so that a finished game keeps its moves' times.
///
/// Times only grow, so each is kept as the tenths since the one before, written in seven-bit
/// groups (LEB128): a gap under 12.8 s takes one byte, under 27 minutes two. Eight bytes a
/// move as `Double`s made 250 tables of a soak, whose players never end a deal, grow by 4 MiB
/// over their first four minutes (16 KiB a table at the move log's cap); this keeps 2 KiB.
///
/// A time is rounded as the history rounds it, so that a game replayed from these times shows
/// the history its players saw; a time kept whole would not be needed by anyone.
public struct MoveTimes: Hashable, Sendable {
  private var bytes: [UInt8] = []
  /// The last time appended, in tenths of a second.
  private var lastTenths: UInt64 = 0
  /// How many times are kept.
  public private(set) var count = 0

  /// No times.
  public init() {}

  /// `seconds` into play (rounded to the tenth as the history rounds it; a time before the last
  /// one counts as the last one, a negative or not finite one as 0).
  public mutating func append(_ seconds: Double) {
    let tenths = Self.tenths(seconds)
    var gap = tenths > lastTenths ? tenths - lastTenths : 0
    lastTenths += gap
    repeat {
      let low = UInt8(gap & 0x7F)
      gap >>= 7
      bytes.append(gap == 0 ? low : low | 0x80)
    } while gap > 0
    count += 1
  }

  /// Every time, in order, in seconds (whole tenths).
  public var seconds: [Double] {
    var times: [Double] = []
    times.reserveCapacity(count)
    var total: UInt64 = 0
    var gap: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      gap |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 {
        total += gap
        times.append(Double(total) / 10)
        gap = 0
        shift = 0
      } else {
        shift += 7
      }
    }
    return times
  }

  /// The last time appended, in seconds (whole tenths), as ``seconds`` ends; 0 when none is.
  public var lastSeconds: Double { Double(lastTenths) / 10 }

  /// Bytes the times take (the array may have reserved more).
  public var byteCount: Int { bytes.count }

  /// `seconds` in whole tenths, rounded as `StatusLine`'s history entries round them (half
  /// away from zero); 0 for what is not a time into play.
  static func tenths(_ seconds: Double) -> UInt64 {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    // About 58 billion years; a server does not run that long.
    return UInt64(min((seconds * 10).rounded(), 1.8e19))
  }
}
