import CLoadSystem
import Glibc

extension EventLoop {
  /// Handles bytes from the socket: the handshake answer first, frames after it.
  func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection, now: UInt64) {
    if connection.state == .handshaking {
      connection.handshakeBytes.append(contentsOf: bytes)
      let used: Int?
      do {
        used = try connection.handshake.verify(response: connection.handshakeBytes)
      } catch {
        statistics.errors["handshake", default: 0] += 1
        lost(connection)
        return
      }
      guard let used else { return }
      connection.state = .open
      inFlight -= 1
      statistics.connected += 1
      connection.reader.append(Array(connection.handshakeBytes[used...]))
      connection.handshakeBytes = []
      // A session's token is base64url: nothing in it needs escaping.
      let resume = connection.token.map { #","resume":"\#($0)""# } ?? ""
      sendText(
        #"{"type":"hello","id":1,"name":"bot\#(connection.globalPlayer)"\#(resume)}"#,
        on: connection)
    } else {
      connection.reader.append(bytes)
    }
    while connection.state == .open || connection.state == .closing {
      let frame: WebSocketFrame?
      do {
        frame = try connection.reader.next()
      } catch {
        statistics.protocolErrors += 1
        lost(connection)
        return
      }
      guard let frame else { return }
      switch frame.opcode {
      case .text, .continuation, .binary:
        if frame.fin && connection.fragments == nil {
          receive(message: frame.payload, on: connection, now: now)
        } else {
          connection.fragments = (connection.fragments ?? []) + frame.payload
          if frame.fin, let whole = connection.fragments {
            connection.fragments = nil
            receive(message: whole, on: connection, now: now)
          }
        }
      case .ping:
        sendFrame(WebSocketFrame(opcode: .pong, payload: frame.payload), on: connection)
      case .pong:
        break
      case .close:
        if !connection.closeSent {
          statistics.closes[frame.closeCode, default: 0] += 1
          sendFrame(
            WebSocketFrame(opcode: .close, payload: Array(frame.payload.prefix(2))), on: connection)
          connection.closeSent = true
        }
        flushOne(connection)
        closeSocket(connection)
        return
      }
    }
  }

  /// Starts the close handshake on every open connection.
  func beginClosing() {
    closing = true
    for connection in connections {
      switch connection.state {
      case .open where connection.stalled:
        closeSocket(connection)
      case .open:
        // 1000: normal closure, as two big-endian bytes.
        sendFrame(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]), on: connection)
        connection.closeSent = true
        connection.state = .closing
      case .connecting, .handshaking, .notStarted:
        closeSocket(connection)
      case .closing, .closed:
        break
      }
    }
  }

  /// Queues a text frame.
  func sendText(_ text: String, on connection: Connection) {
    sendFrame(WebSocketFrame(opcode: .text, payload: Array(text.utf8)), on: connection)
  }

  /// Queues a masked frame (a close also while closing).
  private func sendFrame(_ frame: WebSocketFrame, on connection: Connection) {
    guard connection.state == .open || (connection.state == .closing && frame.opcode == .close)
    else { return }
    let mask = random.next()
    frame.encode(
      into: &connection.out,
      mask: (
        UInt8(truncatingIfNeeded: mask), UInt8(truncatingIfNeeded: mask >> 8),
        UInt8(truncatingIfNeeded: mask >> 16), UInt8(truncatingIfNeeded: mask >> 24)
      ))
    markDirty(connection)
  }

  /// Puts the connection on the list to flush.
  func markDirty(_ connection: Connection) {
    guard !connection.dirty else { return }
    connection.dirty = true
    dirty.append(connection.index)
  }

  /// Writes every dirty connection's bytes: one `send` per connection per loop iteration.
  func flush() {
    let list = dirty
    dirty.removeAll(keepingCapacity: true)
    for index in list {
      let connection = connections[index]
      connection.dirty = false
      flushOne(connection)
    }
  }

  /// Writes what the socket takes now; watches for writability while bytes are left.
  private func flushOne(_ connection: Connection) {
    guard connection.fd >= 0 else { return }
    while connection.outOffset < connection.out.count {
      let n = connection.out.withUnsafeBytes { bytes in
        Glibc.send(
          connection.fd, bytes.baseAddress! + connection.outOffset,
          bytes.count - connection.outOffset, Int32(MSG_NOSIGNAL))
      }
      if n > 0 {
        connection.outOffset += n
      } else if n < 0 && errno == EINTR {
        continue
      } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        break
      } else {
        lost(connection)
        return
      }
    }
    let pendingBytes = connection.outOffset < connection.out.count
    if !pendingBytes {
      connection.out.removeAll(keepingCapacity: true)
      connection.outOffset = 0
    }
    if pendingBytes != connection.watchingWrite && connection.fd >= 0 {
      connection.watchingWrite = pendingBytes
      var event = epoll_event(
        events: EPOLLIN.rawValue | (pendingBytes ? EPOLLOUT.rawValue : 0),
        data: epoll_data_t(u64: UInt64(connection.index)))
      epoll_ctl(epollFD, EPOLL_CTL_MOD, connection.fd, &event)
    }
  }
}
