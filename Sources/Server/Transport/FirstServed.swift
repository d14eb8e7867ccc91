import CEventPass
import CWebSockets
import Glibc

/// The connections served first in a busy pass of the service loop: the players of watched
/// tables (``ServiceLoop/servePlayersFirst()``). Their sockets are also in a poll set of their
/// own (an epoll descriptor); when a pass has much to do, the loop reads theirs first and
/// writes what that decided for them before it runs the pass's other events
/// (``ServiceLoop/passBegins()``). Service thread only.
final class FirstServed {
  /// The poll set; -1 if none could be made (then nobody is served first).
  private let set: Int32
  /// Members.
  private(set) var count = 0
  /// The ready sockets of the last look.
  private var ready = [Int32](repeating: -1, count: FirstServed.readyPerLook)

  /// Sockets taken from the set per look.
  static let readyPerLook = 64

  init() {
    set = event_pass_first_new()
  }

  deinit {
    if set >= 0 { close(set) }
  }

  /// `state` is served first from now on (a no-op if it is).
  func add(_ state: ConnectionState) {
    guard set >= 0, !state.isServedFirst else { return }
    let fd = lws_get_socket_fd(state.wsi)
    guard fd >= 0, event_pass_first_add(set, fd) == 0 else { return }
    state.isServedFirst = true
    count += 1
  }

  /// `state` is served in turn from now on (a no-op if it is).
  func remove(_ state: ConnectionState) {
    guard state.isServedFirst else { return }
    state.isServedFirst = false
    count -= 1
    let fd = lws_get_socket_fd(state.wsi)
    if fd >= 0 { _ = event_pass_first_remove(set, fd) }
  }

  /// Calls `serve` with each member socket that has input waiting, at most ``readyPerLook``.
  func forEachReady(_ serve: (Int32) -> Void) {
    guard count > 0 else { return }
    let found = ready.withUnsafeMutableBufferPointer {
      event_pass_first_ready(set, $0.baseAddress, Int32($0.count))
    }
    guard found > 0 else { return }
    for index in 0..<Int(found) { serve(ready[index]) }
  }
}
