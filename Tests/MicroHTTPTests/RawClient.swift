#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal HTTP/1.1 client over a blocking socket with a receive timeout, so that the tests
/// see exactly what the server sends (chunking and stream ends included).
final class RawClient: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  struct Response {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  private var descriptor: Int32
  private var buffer: [UInt8] = []

  /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds (a deadline for a
  /// server that stopped answering, long enough for a loaded 2-core machine where the server's
  /// handlers wait for the cooperative pool behind hundreds of other tests).
  init(port: Int, timeout: Int = 30) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      close()  // deinit runs too when a class's init throws: close once, through close()
      throw Failure(description: "connect: errno \(code)")
    }
  }

  deinit { close() }

  func close() {
    if descriptor >= 0 {
      Glibc.close(descriptor)
      descriptor = -1
    }
  }

  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
      offset += sent
    }
  }

  /// Reads more bytes into the buffer; false at end of stream. A signal handled by the process
  /// while it waits (`EINTR`: a receive with a timeout is never restarted automatically) is not
  /// a failure: it reads on.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    var count: Int
    repeat {
      count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    } while count < 0 && errno == EINTR
    if count == 0 { return false }
    guard count > 0 else { throw Failure(description: "recv: errno \(errno) (timeout?)") }
    buffer.append(contentsOf: chunk[..<count])
    return true
  }

  /// Reads a line ending in CRLF (without it), or nil at end of stream.
  func readLine() throws -> String? {
    while true {
      if let index = buffer.firstIndex(of: 10) {
        var line = Array(buffer[..<index])
        buffer.removeFirst(index + 1)
        if line.last == 13 { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      guard try fill() else { return nil }
    }
  }

  func readBytes(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw Failure(description: "stream ended early") }
    }
    defer { buffer.removeFirst(count) }
    return Array(buffer[..<count])
  }

  /// Reads the status line and headers.
  func readHead() throws -> (status: Int, headers: [String: String]) {
    guard let statusLine = try readLine() else { throw Failure(description: "no status line") }
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else {
      throw Failure(description: "bad status line \(statusLine)")
    }
    var headers: [String: String] = [:]
    while let line = try readLine(), !line.isEmpty {
      if let colon = line.firstIndex(of: ":") {
        headers[line[..<colon].lowercased()] =
          line[line.index(after: colon)...]
          .trimmingPrefix(" ").description
      }
    }
    return (status, headers)
  }

  /// The next chunk of a chunked body, or nil after the last (zero-size) chunk.
  func readChunk() throws -> [UInt8]? {
    guard let sizeLine = try readLine(), let size = Int(sizeLine, radix: 16) else {
      throw Failure(description: "bad chunk header")
    }
    if size == 0 {
      _ = try readLine()
      return nil
    }
    let bytes = try readBytes(size)
    _ = try readLine()
    return bytes
  }

  /// Sends one request and reads the whole response (Content-Length or chunked).
  static func request(
    port: Int, method: String = "GET", path: String, headers: [String: String] = [:],
    body: [UInt8] = []
  ) throws -> Response {
    let client = try RawClient(port: port)
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    try client.send(head + "\r\n")
    if !body.isEmpty { try client.send(body) }
    let (status, responseHeaders) = try client.readHead()
    var bytes: [UInt8] = []
    if let length = responseHeaders["content-length"].flatMap({ Int($0) }) {
      bytes = try client.readBytes(length)
    } else if responseHeaders["transfer-encoding"] == "chunked" {
      while let chunk = try client.readChunk() { bytes += chunk }
    }
    return Response(status: status, headers: responseHeaders, body: bytes)
  }
}

extension RawClient {
  /// ``request(port:method:path:headers:body:)`` on a thread of its own.
  static func fetch(
    port: Int, method: String = "GET", path: String, headers: [String: String] = [:],
    body: [UInt8] = []
  ) async throws -> Response {
    try await offPool {
      try request(port: port, method: method, path: path, headers: headers, body: body)
    }
  }
}
