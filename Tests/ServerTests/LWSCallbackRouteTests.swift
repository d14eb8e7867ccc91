import CWebSockets
import Testing

@testable import Server

/// Where each lws callback goes, on the game protocol and on "http".
@Suite struct LWSCallbackRouteTests {
  @Test func theGameProtocolHandlesWebSocketsAndPlainHTTP() {
    let expected: [(lws_callback_reasons, LWSCallbackRoute)] = [
      (LWS_CALLBACK_EVENT_WAIT_CANCELLED, .wake),
      (LWS_CALLBACK_PROTOCOL_INIT, .protocolInitialised),
      (LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION, .upgradeFilter),
      (LWS_CALLBACK_HTTP, .httpRequest),
      (LWS_CALLBACK_HTTP_WRITEABLE, .httpBody),
      (LWS_CALLBACK_CLOSED_HTTP, .httpBody),
      (LWS_CALLBACK_ESTABLISHED, .established),
      (LWS_CALLBACK_RECEIVE, .receive),
      (LWS_CALLBACK_SERVER_WRITEABLE, .writable),
      (LWS_CALLBACK_CLOSED, .closed),
      (LWS_CALLBACK_WS_PEER_INITIATED_CLOSE, .peerClose),
      (LWS_CALLBACK_RECEIVE_PONG, .pong),
      (LWS_CALLBACK_WSI_CREATE, .lwsDefault),
      (LWS_CALLBACK_HTTP_BIND_PROTOCOL, .lwsDefault),
      (LWS_CALLBACK_PROTOCOL_DESTROY, .lwsDefault),
    ]
    for (reason, route) in expected {
      #expect(LWSCallbackRoute(gameProtocol: reason) == route, "\(reason.rawValue)")
    }
  }

  @Test func theHTTPProtocolRefusesUpgradesAndServesOnlyHTTP() {
    #expect(
      LWSCallbackRoute(httpProtocol: LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION) == .refuseUpgrade)
    #expect(LWSCallbackRoute(httpProtocol: LWS_CALLBACK_HTTP) == .httpRequest)
    #expect(LWSCallbackRoute(httpProtocol: LWS_CALLBACK_HTTP_WRITEABLE) == .httpBody)
    #expect(LWSCallbackRoute(httpProtocol: LWS_CALLBACK_CLOSED_HTTP) == .httpBody)
    // Each connection a listening socket accepts is paced (``AcceptPacing``).
    #expect(LWSCallbackRoute(httpProtocol: LWS_CALLBACK_FILTER_NETWORK_CONNECTION) == .accepted)
    // Wakes, WebSocket traffic and the rest are not this protocol's.
    for reason in [
      LWS_CALLBACK_EVENT_WAIT_CANCELLED, LWS_CALLBACK_ESTABLISHED, LWS_CALLBACK_RECEIVE,
      LWS_CALLBACK_SERVER_WRITEABLE, LWS_CALLBACK_CLOSED, LWS_CALLBACK_PROTOCOL_INIT,
    ] {
      #expect(LWSCallbackRoute(httpProtocol: reason) == .lwsDefault, "\(reason.rawValue)")
    }
  }
}
