import CWebSockets
import Protocol

/// Links on the service thread: WebSocket connections this server opens to another server
/// (`TransportCommand.connect`; a node watching a table of another node, issue 36). lws runs
/// them as clients on the same context and loop; once open, a link is a connection like any
/// other (`ConnectionState.isLink` says where it differs).
extension ServiceLoop {
  /// Starts opening link `id` to the server at `url`. lws may report its failure before this
  /// returns.
  func connect(_ id: ConnectionID, url: String) {
    guard id.isLink, connections[id] == nil, !linksOpening.contains(id) else {
      logger.error("a link's id is not a free link id", metadata: ["connection": "\(id)"])
      return
    }
    guard let eventLoop, !shuttingDown, let address = LinkAddress(url: url) else {
      logger.info("a link cannot be opened", metadata: ["connection": "\(id)", "url": "\(url)"])
      deliver(.closed(id))
      return
    }
    linksOpening.insert(id)
    let wsi = address.host.withCString { host in
      address.path.withCString { path in
        configuration.subprotocol.withCString { subprotocol in
          var info = lws_client_connect_info()
          info.context = eventLoop.context
          info.vhost = lws_get_vhost_by_name(eventLoop.context, "default")
          info.address = host
          info.host = host
          info.port = Int32(address.port)
          info.path = path
          info.protocol = subprotocol
          info.local_protocol_name = subprotocol
          info.ietf_version_or_minus_one = -1
          info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(id.rawValue))
          return lws_client_connect_via_info(&info)
        }
      }
    }
    if wsi == nil { linkFailed(id, reason: "lws could not start it") }
  }

  /// `LWS_CALLBACK_CLIENT_ESTABLISHED`: the link is open, and reported.
  func linkEstablished(_ wsi: OpaquePointer, session: UnsafeMutablePointer<shim_session>?) -> Int32
  {
    guard let session, let id = linkID(of: wsi), linksOpening.remove(id) != nil else { return -1 }
    let state = adopt(wsi, as: id, session: session, isLink: true)
    deliver(.opened(id, address: nil))
    if shuttingDown {
      requestClose(
        state, code: 1001, reason: configuration.shutdownCloseReason, flushFirst: true)
    }
    return 0
  }

  /// `LWS_CALLBACK_CLIENT_CONNECTION_ERROR`: the link never opened.
  func linkFailed(_ wsi: OpaquePointer?, reason: UnsafeMutableRawPointer?, length: Int) {
    guard let wsi, let id = linkID(of: wsi) else { return }
    let text =
      reason.map {
        String(
          decoding: UnsafeRawBufferPointer(start: $0, count: strnlen($0, length)), as: UTF8.self)
      } ?? ""
    linkFailed(id, reason: text)
  }

  private func linkFailed(_ id: ConnectionID, reason: String) {
    guard linksOpening.remove(id) != nil else { return }
    logger.info(
      "a link could not be opened", metadata: ["connection": "\(id)", "why": "\(reason)"])
    deliver(.closed(id))
  }

  /// The link id `wsi` was opened as (its opaque user data), or nil for a client's.
  private func linkID(of wsi: OpaquePointer) -> ConnectionID? {
    guard let raw = lws_get_opaque_user_data(wsi) else { return nil }
    let id = ConnectionID(rawValue: UInt64(UInt(bitPattern: raw)))
    return id.isLink ? id : nil
  }

  /// Writes `frame` on link `state`, or its PING when `frame` is nil: lws masks what a client
  /// sends where it lies, so it is copied to the link's own buffer first (a `Frame` is shared,
  /// and so is the ping buffer of the other connections).
  func writeLink(_ frame: Frame?, _ state: ConnectionState) -> Int32 {
    let headroom = Int(shim_lws_pre())
    let count = frame?.count ?? LWSResources.pingPayload.count
    let buffer = state.writeBuffer(capacity: headroom + count)
    if let frame {
      frame.withWireBuffer { payload, length in
        (buffer + headroom).copyMemory(from: payload, byteCount: length)
      }
    } else {
      (buffer + headroom).copyMemory(
        from: LWSResources.pingPayload, byteCount: LWSResources.pingPayload.count)
    }
    let written = lws_write(
      state.wsi, (buffer + headroom).assumingMemoryBound(to: UInt8.self), count,
      frame == nil ? LWS_WRITE_PING : LWS_WRITE_TEXT)
    return written < 0 ? -1 : 0
  }
}
