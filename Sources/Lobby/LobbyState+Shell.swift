/// The steps every shell takes around the lobby's decisions, written once for the inline shell,
/// the sharded one, the fuzz target and the tests.
extension LobbyState {
  /// Before an event: whether the journal's writer is `failing` now is news for the lobby when
  /// it differs from what the lobby knows (``journalAvailable(_:)``; moves are refused while it
  /// fails). Returns whether it was news.
  @discardableResult
  public mutating func noteJournal(failing: Bool) -> Bool {
    guard failing != journalDown else { return false }
    journalAvailable(!failing)
    return true
  }

  /// After an event: whatever came due meanwhile happens (the shell's timer may not have fired
  /// yet), as a ``LobbyEvent/clock`` at `now`; nothing when nothing is due.
  public mutating func catchUp(now: Double) -> [LobbyAction] {
    guard let due = nextDeadline(), due <= now else { return [] }
    return handle(.clock, now: now)
  }
}
