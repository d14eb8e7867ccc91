import CWebSockets

#if canImport(Glibc)
  import Glibc
#endif

/// C memory that must outlive the lws context: protocol and option arrays, their
/// strings, the keepalive policy and the shutdown timer. Owned by the service thread; freed
/// in `deinit`, which must run only after `lws_context_destroy`.
final class LWSResources {
  /// Protocol array: `[0]` "http" (static files), `[1]` the game subprotocol, `[2]` zeroed end.
  let protocols: UnsafeMutablePointer<lws_protocols>
  /// The metrics listener's protocols: `[0]` "http" alone (no WebSocket), `[1]` zeroed end.
  let metricsProtocols: UnsafeMutablePointer<lws_protocols>
  /// Per-vhost protocol options: marks the game protocol as the default for clients that name
  /// no subprotocol.
  let protocolOptions: UnsafeMutablePointer<lws_protocol_vhost_options>
  /// All zero: lws' own keepalive stays off (`secs_since_valid_hangup` 0). The transport pings
  /// and hangs up itself (see `KeepaliveWheel`); an lws policy would also replace lws' default
  /// one, which pings after 300 s.
  let retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>
  /// The shutdown deadline timer (an lws `sul` with an owner pointer).
  let deadlineTimer: UnsafeMutablePointer<shim_timer>
  /// The service-thread handler's timer.
  let handlerTimer: UnsafeMutablePointer<shim_timer>
  /// The keepalive timer (once a second while keepalive is on).
  let keepaliveTimer: UnsafeMutablePointer<shim_timer>
  /// The wake of a pass while connections wait to be let in (``AcceptPacing``).
  let acceptTimer: UnsafeMutablePointer<shim_timer>
  /// The keepalive PING frame's buffer: `LWS_PRE` bytes of headroom for the frame header, then
  /// `pingPayload`. Shared by every connection (safe without permessage-deflate: lws sends it
  /// or copies what the socket did not take).
  let pingBuffer: UnsafeMutableRawPointer
  /// The PING's payload. Not empty: lws 4.1.6 passes a PONG without payload to nobody (no
  /// `LWS_CALLBACK_RECEIVE_PONG`), so an empty PING's answer would go unseen.
  static let pingPayload = Array("alive?".utf8)
  /// `foreign_loops` for the context: one libev loop.
  let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>

  private var allocations: [UnsafeMutableRawPointer] = []
  /// Allocates everything for `configuration`. The caller fills in the protocols' callbacks.
  init(configuration: TransportConfiguration, perSessionDataSize: Int) {
    protocols = .allocate(capacity: 3)
    protocols.initialize(repeating: lws_protocols(), count: 3)
    metricsProtocols = .allocate(capacity: 2)
    metricsProtocols.initialize(repeating: lws_protocols(), count: 2)
    protocolOptions = .allocate(capacity: 2)
    protocolOptions.initialize(repeating: lws_protocol_vhost_options(), count: 2)
    retryPolicy = .allocate(capacity: 1)
    retryPolicy.initialize(to: lws_retry_bo_t())
    deadlineTimer = .allocate(capacity: 1)
    deadlineTimer.initialize(to: shim_timer())
    handlerTimer = .allocate(capacity: 1)
    handlerTimer.initialize(to: shim_timer())
    keepaliveTimer = .allocate(capacity: 1)
    keepaliveTimer.initialize(to: shim_timer())
    acceptTimer = .allocate(capacity: 1)
    acceptTimer.initialize(to: shim_timer())
    let pingSize = shim_lws_pre() + Self.pingPayload.count
    pingBuffer = .allocate(byteCount: pingSize, alignment: 16)
    pingBuffer.initializeMemory(as: UInt8.self, repeating: 0, count: pingSize)
    (pingBuffer + shim_lws_pre()).copyMemory(
      from: Self.pingPayload, byteCount: Self.pingPayload.count)
    foreignLoops = .allocate(capacity: 1)
    foreignLoops.initialize(to: nil)

    let httpName = string("http")
    let gameName = string(configuration.subprotocol)

    protocols[0].name = httpName

    protocols[1].name = gameName
    protocols[1].per_session_data_size = perSessionDataSize
    // Receive chunk size; lws allocates this much per connection for its whole life. Game
    // messages are small; bigger ones arrive in several chunks.
    protocols[1].rx_buffer_size = 1024
    // Without this lws caps every send() at rx_buffer_size and copies the rest of each frame
    // into its own buffer.
    protocols[1].tx_packet_size = 1 << 20

    // protocolOptions[0]: options for the game protocol; [1]: its child "default" = "1".
    protocolOptions[1].name = string("default")
    protocolOptions[1].value = string("1")
    protocolOptions[0].name = gameName
    protocolOptions[0].value = string("")
    protocolOptions[0].options = UnsafePointer(protocolOptions + 1)
  }

  /// A C copy of `text` that lives as long as this object.
  func string(_ text: String) -> UnsafePointer<CChar> {
    let copy = strdup(text)!
    allocations.append(UnsafeMutableRawPointer(copy))
    return UnsafePointer(copy)
  }

  deinit {
    for allocation in allocations { free(allocation) }
    protocols.deinitialize(count: 3)
    protocols.deallocate()
    metricsProtocols.deinitialize(count: 2)
    metricsProtocols.deallocate()
    protocolOptions.deinitialize(count: 2)
    protocolOptions.deallocate()
    retryPolicy.deinitialize(count: 1)
    retryPolicy.deallocate()
    deadlineTimer.deinitialize(count: 1)
    deadlineTimer.deallocate()
    handlerTimer.deinitialize(count: 1)
    handlerTimer.deallocate()
    keepaliveTimer.deinitialize(count: 1)
    keepaliveTimer.deallocate()
    acceptTimer.deinitialize(count: 1)
    acceptTimer.deallocate()
    pingBuffer.deallocate()
    foreignLoops.deinitialize(count: 1)
    foreignLoops.deallocate()
  }
}
