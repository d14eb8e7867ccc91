import Testing

@testable import LoadKit

/// Timing a crowd (issue 36): each diff a spectator reads is timed from the move that made it,
/// whichever of the two the load generator reads first, and a spectator reads a diff's version
/// without parsing it.
struct SpectatorDeliveryTests {
  @Test func arrivalsAreTimedFromTheMoveWhicheverComesFirst() {
    var delivery = SpectatorDelivery()
    // The mover's answer first: the arrivals after it are timed at once.
    #expect(delivery.made(version: 7, sent: 1_000).isEmpty)
    #expect(delivery.arrived(version: 7, at: 4_000) == 3_000)
    // Two spectators read version 8 before its mover does: timed once the move is known.
    #expect(delivery.arrived(version: 8, at: 5_000) == nil)
    #expect(delivery.arrived(version: 8, at: 6_000) == nil)
    #expect(delivery.made(version: 8, sent: 4_500) == [500, 1_500])
    // A version no measured move made stays untimed.
    #expect(delivery.arrived(version: 9, at: 7_000) == nil)
  }

  @Test func onlyTheLastVersionsAreKept() {
    var delivery = SpectatorDelivery()
    for version in 1...50_000 {
      _ = delivery.made(version: version, sent: UInt64(version))
      _ = delivery.arrived(version: version, at: UInt64(version) + 10)
      // Versions nobody's measured move made (a deal, a phase) are read too.
      _ = delivery.arrived(version: 100_000 + version, at: 1)
    }
    #expect(delivery.count <= 2 * SpectatorDelivery.kept + 2)
  }

  @Test func aDiffsVersionIsReadFromItsFirstBytes() {
    func version(_ text: String) -> Int? { EventLoop.diffVersion(Array(text.utf8)) }
    #expect(version(#"{"type":"diff","table":"t1","version":7,"seat":0,"events":[]}"#) == 7)
    #expect(
      version(#"{"type":"diff","table":"t2000000000001","version":123456,"events":[]}"#) == 123456)
    #expect(version(#"{"type":"snapshot","table":{"version":7}}"#) == nil)
    #expect(version(#"{"type":"spectators","table":"t1","count":7}"#) == nil)
    #expect(version(#"{"type":"diff","table":"t1","version":"x"}"#) == nil)
    #expect(version(#"{"type":"diff""#) == nil)
  }

  @Test func aCrowdIsAllowedUpToTwentyThousandATable() {
    var configuration = LoadConfiguration()
    configuration.tables = 1
    configuration.spectators = 20_000
    #expect(configuration.problem == nil)
    configuration.spectators = 20_001
    #expect(configuration.problem?.contains("--spectators") == true)
    configuration.tables = 100
    configuration.spectators = 2_000
    #expect(configuration.problem?.contains("at most") == true)
  }

  @Test func theCrowdsThreadsNeedACrowdAndANiceValue() {
    var configuration = LoadConfiguration()
    configuration.crowdThreads = 1
    #expect(configuration.problem == "--crowd-threads needs --spectators")
    configuration.spectators = 10
    configuration.crowdNice = 10
    #expect(configuration.problem == nil)
    configuration.crowdNice = 20
    #expect(configuration.problem?.contains("--crowd-nice") == true)
    configuration.crowdNice = 5
    configuration.crowdThreads = 0
    #expect(configuration.problem == "--crowd-nice needs --crowd-threads")
  }
}

@Suite struct SpectatorPortsTests {
  @Test func spectatorsOnOtherNodesNeedTheirOwnThreadsAndRealPorts() {
    var configuration = LoadConfiguration()
    configuration.tables = 1
    configuration.spectators = 10
    configuration.spectatorPorts = [9001, 9002]
    #expect(configuration.problem == "--spectator-ports needs --spectators and --crowd-threads")
    configuration.crowdThreads = 1
    #expect(configuration.problem == nil)
    configuration.spectatorPorts = [9001, 0]
    #expect(configuration.problem == "--spectator-ports must be ports 1...65535")
  }
}
