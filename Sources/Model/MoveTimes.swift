/// When each move of a game was made, in seconds into play, to the millisecond, in about two
/// bytes a move: what a live table keeps beside its ``MoveLog`` so that a finished game keeps
/// its moves' times.
///
/// Times only grow, so each is kept as the milliseconds since the one before, written in
/// seven-bit groups (LEB128): a gap under 128 ms takes one byte, under 16.4 s two, under
/// 35 minutes three. Eight bytes a move as `Double`s made 250 tables of a soak, whose players
/// never end a deal, grow by 4 MiB over their first four minutes (16 KiB a table at the move
/// log's cap); this keeps 4 KiB or so.
public struct MoveTimes: Hashable, Sendable {
  private var bytes: [UInt8] = []
  /// The last time appended, in whole milliseconds.
  private var lastMilliseconds: UInt64 = 0
  /// How many times are kept.
  public private(set) var count = 0

  /// No times.
  public init() {}

  /// `seconds` into play (rounded to the millisecond; a time before the last one counts as the
  /// last one, a negative or not finite one as 0).
  public mutating func append(_ seconds: Double) {
    let milliseconds = Self.milliseconds(seconds)
    var gap = milliseconds > lastMilliseconds ? milliseconds - lastMilliseconds : 0
    lastMilliseconds += gap
    repeat {
      let low = UInt8(gap & 0x7F)
      gap >>= 7
      bytes.append(gap == 0 ? low : low | 0x80)
    } while gap > 0
    count += 1
  }

  /// Every time, in order, in seconds.
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
        times.append(Double(total) / 1000)
        gap = 0
        shift = 0
      } else {
        shift += 7
      }
    }
    return times
  }

  /// Bytes the times take (the array may have reserved more).
  public var byteCount: Int { bytes.count }

  /// `seconds` as whole milliseconds, rounded; 0 for what is not a time into play.
  static func milliseconds(_ seconds: Double) -> UInt64 {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    // About 584 million years; a server does not run that long.
    return UInt64(min((seconds * 1000).rounded(), 1.8e19))
  }
}
