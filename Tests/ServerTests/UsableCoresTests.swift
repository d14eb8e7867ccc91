import Foundation
import Testing

@testable import Server

/// The default executors count the cores the process may use, not the machine's.
@Suite struct UsableCoresTests {
  @Test func theAffinityMaskIsCounted() {
    let status = "Name:\tmatchismo\nCpus_allowed:\tff\nCpus_allowed_list:\t0-7\n"
    #expect(UsableCores.cores(inStatus: status) == 8)
    // `taskset -c 0` on a machine of 2.
    #expect(UsableCores.cores(inStatus: "Cpus_allowed:\t1\n") == 1)
    // More than 32 cores come in groups.
    #expect(UsableCores.cores(inStatus: "Cpus_allowed:\t00000003,ffffffff\n") == 34)
    #expect(UsableCores.cores(inStatus: "Cpus_allowed:\t0\n") == nil)
    #expect(UsableCores.cores(inStatus: "Cpus_allowed:\tzz\n") == nil)
    #expect(UsableCores.cores(inStatus: "Name:\tx\n") == nil)
  }

  @Test func thisProcessCountsWhatItMayUse() {
    #expect(UsableCores.count >= 1)
    #expect(UsableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
  }
}
