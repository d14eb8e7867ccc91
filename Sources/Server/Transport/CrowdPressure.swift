import Synchronization

/// Whether a large crowd's fan-out holds the transport's service thread pass after pass
/// (``ServiceLoop/serveCrowds()`` says so at the end of each pass), for the journal's writer,
/// which then takes a short slice (``JournalWriter/followCrowdPressure()``). One service thread
/// a server, one server a process: the word is the process's.
enum CrowdPressure {
  /// What the service thread said last (false at first). Any thread.
  static let pressing = Atomic<Bool>(false)
}
