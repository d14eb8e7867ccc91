import Testing

@testable import Server

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct SignalWatcherTests {
  @Test func reportsASignal() async {
    let (watcher, signals) = SignalWatcher.stream(signals: [SIGUSR2])
    kill(getpid(), SIGUSR2)
    var received: Int32?
    for await signal in signals {
      received = signal
      break
    }
    watcher.cancel()
    #expect(received == SIGUSR2)
  }
}
