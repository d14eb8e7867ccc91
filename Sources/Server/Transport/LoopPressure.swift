import Synchronization

/// Whether the transport's service thread is pressed pass after pass (``PressureHold``: a large
/// crowd's fan-out behind, or new connections waiting to be let in; the end of each pass says
/// so when it changes, ``ServiceLoop/followLoopPressure()``), for the journal's writer, which
/// then takes a short slice (``JournalWriter/followLoopPressure()``), and for the inline lobby,
/// which then wakes the writer at each decision (``InlineLobby``). One service thread a server,
/// one server a process: the word is the process's.
enum LoopPressure {
  /// What the service thread said last (false at first). Any thread.
  static let pressing = Atomic<Bool>(false)
}
