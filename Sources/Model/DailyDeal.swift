/// The daily puzzle's deal: one per game and UTC day, the same in every process and on every
/// node, a different one the next day. A day is named as `2026-11-27` (UTC).
public enum DailyDeal {
  /// The seed of `game`'s deal on `day`: the day's name and the game's, hashed (FNV-1a, 64
  /// bits) and mixed (``SplitMix64``). Never changes for a day: a result posted on one node
  /// was played on the same cards as one posted on another.
  public static func seed(game: String, day: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in "daily:\(game):\(day)".utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    var mixer = SplitMix64(seed: hash)
    return mixer.next()
  }

  /// The UTC day `seconds` after 1970-01-01T00:00:00Z falls on, as `yyyy-mm-dd`.
  public static func day(unixSeconds seconds: Double) -> String {
    name(ofDay: Int((seconds / 86_400).rounded(.down)))
  }

  /// The day before `day` (`yyyy-mm-dd`), or nil when it is not such a name.
  public static func dayBefore(_ day: String) -> String? {
    number(ofDay: day).map { name(ofDay: $0 - 1) }
  }

  /// The name of the day `days` after 1970-01-01 (the proleptic Gregorian calendar).
  static func name(ofDay days: Int) -> String {
    // Days to a civil date, counting in 400-year eras from 0000-03-01.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))"
  }

  /// The number of the day named `day` (days after 1970-01-01), or nil when it is no day.
  static func number(ofDay day: String) -> Int? {
    let parts = day.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
      (1...12).contains(month), (1...31).contains(dayOfMonth)
    else { return nil }
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + dayOfMonth - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let number = era * 146_097 + dayOfEra - 719_468
    // A day that does not exist (30 February) does not name itself back.
    return name(ofDay: number) == day ? number : nil
  }
}
