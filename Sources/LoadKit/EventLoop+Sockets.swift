import CLoadSystem
import Glibc

extension EventLoop {
  /// 127.0.0.1, 127.0.0.2, ... (all of 127.0.0.0/8 is this machine's loopback): one per
  /// `connectionsPerSourceAddress` connections of the whole run, at most 250.
  static func sourceAddresses(connections: Int) -> [in_addr_t] {
    let count = min(
      250, max(1, (connections + connectionsPerSourceAddress - 1) / connectionsPerSourceAddress))
    return (1...count).map { in_addr_t((127 << 24) | UInt32($0)).bigEndian }
  }

  /// Binds `fd` to the local address for connection `index` (port chosen by `connect`).
  /// Failing that, `connect` picks the address as usual.
  private func bindSource(_ fd: Int32, index: Int) {
    guard sourceAddresses.count > 1 else { return }
    var one: Int32 = 1
    setsockopt(
      fd, Int32(IPPROTO_IP), load_ip_bind_address_no_port(), &one,
      socklen_t(MemoryLayout<Int32>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = sourceAddresses[index % sourceAddresses.count]
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if bound != 0 { statistics.errors["bind", default: 0] += 1 }
  }

  /// The port `connection` connects to: a spectator's is one of the other nodes' when there
  /// are some (``LoadConfiguration/spectatorPorts``), in turn.
  func port(of connection: Connection) -> Int {
    let others = configuration.spectatorPorts
    guard connection.role == .spectator, !others.isEmpty else { return configuration.port }
    return others[connection.index % others.count]
  }

  /// Opens a non-blocking socket to the server and starts connecting.
  func startConnecting(_ connection: Connection) {
    let fd = socket(
      AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      connection.state = .closed
      closedCount += 1
      settle(connection, ready: false)
      statistics.errors["socket", default: 0] += 1
      return
    }
    var one: Int32 = 1
    // Small frames must leave at once: Nagle would add tens of ms to every move.
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    bindSource(fd, index: connection.index)
    prepareStallingSocket(fd, for: connection)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port(of: connection)).bigEndian)
    inet_pton(AF_INET, configuration.address, &address.sin_addr)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 || errno == EINPROGRESS else {
      statistics.errors["connect", default: 0] += 1
      close(fd)
      connection.state = .closed
      closedCount += 1
      settle(connection, ready: false)
      return
    }
    connection.fd = fd
    connection.state = .connecting
    inFlight += 1
    var event = epoll_event(
      events: EPOLLIN.rawValue | EPOLLOUT.rawValue,
      data: epoll_data_t(u64: UInt64(connection.index)))
    connection.watchingWrite = true
    epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
  }

  /// Handles what epoll reported for `connection`.
  func handle(event: UInt32, connection: Connection, now: UInt64) {
    if connection.state == .connecting {
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length)
      guard error == 0, event & (EPOLLERR.rawValue | EPOLLHUP.rawValue) == 0 else {
        lost(connection)
        return
      }
      guard event & EPOLLOUT.rawValue != 0 else { return }
      connection.state = .handshaking
      let request = connection.handshake.request(
        host: configuration.address, port: port(of: connection), path: configuration.path,
        subprotocol: configuration.subprotocol)
      connection.out.append(contentsOf: request)
      markDirty(connection)
      return
    }
    if connection.stalled {
      // Only an error or a hang-up can be reported for a stalled seat: the server cut it.
      stalledSeatEnded(connection, now: now)
      return
    }
    if event & EPOLLOUT.rawValue != 0 { markDirty(connection) }
    if event & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
      readAll(connection, now: now)
    }
  }

  /// Reads until the socket would block.
  private func readAll(_ connection: Connection, now: UInt64) {
    while connection.state != .closed {
      let n = read(connection.fd, readBuffer.baseAddress, readBuffer.count)
      if n > 0 {
        received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]), on: connection, now: now)
        if n < readBuffer.count { return }
      } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        return
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        lost(connection)
        return
      }
    }
  }

  /// The connection broke without a close handshake (or never connected).
  func lost(_ connection: Connection) {
    if connection.state != .closing {
      statistics.closes[1006, default: 0] += 1
    }
    closeSocket(connection)
  }

  /// Closes the socket; a connection that was not ready yet counts as a setup failure.
  func closeSocket(_ connection: Connection) {
    guard connection.state != .closed else { return }
    if connection.state == .connecting || connection.state == .handshaking { inFlight -= 1 }
    if connection.fd >= 0 {
      epoll_ctl(epollFD, EPOLL_CTL_DEL, connection.fd, nil)
      close(connection.fd)
      connection.fd = -1
    }
    connection.state = .closed
    closedCount += 1
    // Its moves can no longer be answered; they stay in `pending` to be counted as unanswered.
    pendingCount -= connection.pending.count
    settle(connection, ready: false)
  }
}
