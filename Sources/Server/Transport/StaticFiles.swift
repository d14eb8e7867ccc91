#if canImport(Glibc)
  import Glibc
#endif

/// Which files of the web root are served and with which headers: only the client's public
/// files (`index.html` at `/`, a favicon, and files under `css/`, `js/`, `images/`), never its
/// tests, READMEs or anything else, and never a file outside the web root (symlinks included).
struct StaticFiles: Sendable {
  /// A file that may be sent.
  struct Resolved: Equatable {
    /// Absolute path with every symlink resolved.
    var path: String
    /// `Content-Type` value.
    var contentType: String
    /// `Cache-Control` value.
    var cacheControl: String
  }

  /// The web root, absolute and without symlinks (`realpath`).
  let root: String

  /// Content types by file name ending. lws 4.1.6 serves some of these without a charset, and
  /// the charset keeps non-ASCII text (card symbols) intact.
  static let contentTypes: [String: String] = [
    "html": "text/html; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
    "mjs": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml",
    "png": "image/png",
    "webp": "image/webp",
    "ico": "image/x-icon",
  ]

  /// Folders whose files are public (their tests live elsewhere, in `web-client/tests`).
  private static let publicFolders: Set<Substring> = ["css", "js", "images"]

  /// Seconds browsers may reuse a stylesheet, script or image without asking again: short,
  /// because file names carry no version.
  static let assetMaxAge = 300

  /// The file to send for a request path (as lws hands it over: decoded, without the query),
  /// or `nil` for 404.
  func resolve(_ requestPath: String) -> Resolved? {
    let relative = requestPath == "/" ? "index.html" : String(requestPath.dropFirst())
    guard requestPath.hasPrefix("/"), let type = Self.publicType(of: relative) else {
      return nil
    }
    guard let resolved = realpath(root + "/" + relative, nil) else { return nil }
    let path = String(cString: resolved)
    free(resolved)
    // A symlink may point anywhere: what it resolves to must itself be a public file inside
    // the root.
    guard path.hasPrefix(root + "/"),
      Self.publicType(of: String(path.dropFirst(root.count + 1)))
        != nil
    else { return nil }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Resolved(
      path: path, contentType: type,
      cacheControl: relative == "index.html" ? "no-cache" : "max-age=\(Self.assetMaxAge)")
  }

  /// The content type of `relative` if it names a public file, else `nil`.
  private static func publicType(of relative: String) -> String? {
    let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
    // No empty, hidden, `.` or `..` components, and nothing a C path would read differently.
    guard
      parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
      !relative.contains("\0"), !relative.contains("\\")
    else { return nil }
    guard let name = parts.last, let dot = name.lastIndex(of: "."),
      let type = contentTypes[String(name[name.index(after: dot)...]).lowercased()]
    else { return nil }
    if parts.count == 1 {
      return name == "index.html" || name.hasPrefix("favicon.") ? type : nil
    }
    return publicFolders.contains(parts[0]) && !name.hasSuffix(".html") ? type : nil
  }

  /// Headers on every HTTP response, as `(name, value)`. `host` is the request's `Host`
  /// header; when it is a plain host[:port], the CSP also names ws:// and wss:// of it
  /// (older browsers do not count WebSockets to the page's host as `'self'`).
  ///
  /// The web client needs no inline script or style: its styles come from `css/app.css`, and
  /// the one dynamic colour is set through the CSSOM (`style.setProperty`), which CSP allows.
  static func securityHeaders(host: String?) -> [(name: String, value: String)] {
    var connect = "'self'"
    if let host, !host.isEmpty,
      host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
    {
      connect += " ws://\(host) wss://\(host)"
    }
    let policy = [
      "default-src 'self'", "connect-src \(connect)", "img-src 'self'", "frame-ancestors 'none'",
      "base-uri 'none'", "object-src 'none'", "form-action 'none'",
    ].joined(separator: "; ")
    return [
      ("Content-Security-Policy", policy),
      ("X-Content-Type-Options", "nosniff"),
      ("Referrer-Policy", "no-referrer"),
    ]
  }
}
