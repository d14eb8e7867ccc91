import Foundation
import Testing

@testable import Model

/// The daily puzzle's deal (issue 21): the same seed for a game and a UTC day in every process,
/// a different one the next day and for another game; days named and counted in UTC.
@Suite struct DailyDealTests {
  @Test func aDayAndAGameAlwaysGiveTheSameSeed() {
    // Fixed values: another process, another node, another build must deal the same cards.
    #expect(
      DailyDeal.seed(game: "set", day: "2026-11-27")
        == DailyDeal.seed(game: "set", day: "2026-11-27"))
    #expect(DailyDeal.seed(game: "set", day: "2026-11-27") == 8_620_210_859_831_404_889)
    #expect(
      DailyDeal.seed(game: "set", day: "2026-11-28")
        != DailyDeal.seed(game: "set", day: "2026-11-27"))
    #expect(
      DailyDeal.seed(game: "matchismo", day: "2026-11-27")
        != DailyDeal.seed(game: "set", day: "2026-11-27"))
    // A year of days: no two alike.
    let seeds = (0..<366).map {
      DailyDeal.seed(game: "set", day: DailyDeal.name(ofDay: 20_000 + $0))
    }
    #expect(Set(seeds).count == 366)
  }

  @Test func daysAreNamedInUTCAsFoundationNamesThem() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    var generator = SplitMix64(seed: 9)
    for _ in 0..<2_000 {
      // From 1900 to 2200, to the second.
      let seconds = Double(generator.next() % 9_467_280_000) - 2_208_988_800
      let day = DailyDeal.day(unixSeconds: seconds)
      #expect(day == formatter.string(from: Date(timeIntervalSince1970: seconds)), "\(seconds)")
      #expect(DailyDeal.number(ofDay: day) == Int((seconds / 86_400).rounded(.down)))
    }
    #expect(DailyDeal.day(unixSeconds: 0) == "1970-01-01")
    #expect(DailyDeal.day(unixSeconds: 1_795_823_999) == "2026-11-27")
    #expect(DailyDeal.day(unixSeconds: 1_795_824_000) == "2026-11-28")
  }

  @Test func theDayBeforeCrossesMonthsYearsAndLeapDays() {
    #expect(DailyDeal.dayBefore("2026-11-27") == "2026-11-26")
    #expect(DailyDeal.dayBefore("2026-03-01") == "2026-02-28")
    #expect(DailyDeal.dayBefore("2028-03-01") == "2028-02-29")
    #expect(DailyDeal.dayBefore("2027-01-01") == "2026-12-31")
    for bad in ["", "2026-13-01", "2026-02-30", "26-11-27", "2026-1-27", "2026/11/27", "yesterday"]
    {
      #expect(DailyDeal.dayBefore(bad) == nil, "\(bad)")
    }
  }
}
