import CWebSockets

/// Reading the headers of the request on an lws connection. Service thread only.
enum RequestHeader {
  /// The value of request header `token` on `wsi`, or `nil` if absent or empty.
  static func value(_ token: lws_token_indexes, of wsi: OpaquePointer) -> String? {
    let length = Int(lws_hdr_total_length(wsi, token))
    guard length > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: length + 1)
    let copied = Int(lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token))
    guard copied > 0 else { return nil }
    return String(decoding: buffer[..<copied].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
