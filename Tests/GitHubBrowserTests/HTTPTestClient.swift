import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking HTTP/1.1 client on a raw loopback socket for the front end's tests: whole
/// requests, and Server-Sent Events read one event at a time. Reads time out after 10 s.
final class HTTPTestClient: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private var socketDescriptor: Int32
  private let port: Int
  private var pending: [UInt8] = []

  init(port: Int) throws {
    self.port = port
    socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketDescriptor >= 0 else { throw Failure(description: "socket failed") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(
      socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socketDescriptor)
      socketDescriptor = -1
      throw Failure(description: "connect to port \(port) failed")
    }
  }

  deinit {
    if socketDescriptor >= 0 { close(socketDescriptor) }
  }

  /// Sends a request with `Connection: close`.
  func send(method: String, path: String, body: [UInt8] = [], cookie: String? = nil) throws {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    if let cookie { text += "Cookie: \(cookie)\r\n" }
    if method == "POST" {
      text += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    }
    let bytes = Array((text + "\r\n").utf8) + body
    let sent = bytes.withUnsafeBytes {
      Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    guard sent == bytes.count else { throw Failure(description: "short send") }
  }

  /// The next line (without CR LF), or nil at the end of the stream.
  func line() throws -> String? {
    while true {
      if let newline = pending.firstIndex(of: 10) {
        var bytes = Array(pending[..<newline])
        pending.removeFirst(newline + 1)
        if bytes.last == 13 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
      }
      guard try receive() else { return nil }
    }
  }

  /// The next `count` bytes (fewer if the stream ends first).
  func bytes(_ count: Int) throws -> [UInt8] {
    while pending.count < count, try receive() {}
    defer { pending.removeFirst(min(count, pending.count)) }
    return Array(pending.prefix(count))
  }

  /// Appends what arrives to `pending`; false at the end of the stream.
  private func receive() throws -> Bool {
    do {
      var chunk = [UInt8](repeating: 0, count: 16384)
      let count = chunk.withUnsafeMutableBytes {
        recv(socketDescriptor, $0.baseAddress, $0.count, 0)
      }
      if count == 0 { return false }
      guard count > 0 else { throw Failure(description: "receive timed out") }
      pending += chunk[..<count]
      return true
    }
  }

  /// The status and the lower-cased headers (the values of a repeated one joined by newlines).
  func head() throws -> (status: Int, headers: [String: String]) {
    guard let status = try line()?.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { throw Failure(description: "no status line") }
    var headers: [String: String] = [:]
    while let field = try line(), !field.isEmpty {
      guard let colon = field.firstIndex(of: ":") else { continue }
      let name = field[..<colon].lowercased()
      let value = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { $0 + "\n" + value } ?? value
    }
    return (status, headers)
  }

  /// The `data:` of the next event named `name` in a chunked event stream (chunk-size lines
  /// and other events are skipped).
  func nextEvent(named name: String) throws -> String {
    var event: String?
    var data: [String] = []
    while let text = try line() {
      if text.hasPrefix("event: ") { event = String(text.dropFirst(7)) }
      if text.hasPrefix("data: ") { data.append(String(text.dropFirst(6))) }
      if text.isEmpty, !data.isEmpty || event != nil {
        if event == name { return data.joined(separator: "\n") }
        event = nil
        data = []
      }
    }
    throw Failure(description: "the stream ended before a '\(name)' event")
  }

  /// One whole request: the status, the header fields (names in lower case) and the body as
  /// text.
  static func request(
    port: Int, method: String = "GET", path: String, body: String = "", cookie: String? = nil
  ) async throws -> (status: Int, headers: [String: String], body: String) {
    try await onThread {
      let client = try HTTPTestClient(port: port)
      try client.send(method: method, path: path, body: Array(body.utf8), cookie: cookie)
      let (status, headers) = try client.head()
      let length = headers["content-length"].flatMap { Int($0) } ?? 0
      return (status, headers, String(decoding: try client.bytes(length), as: UTF8.self))
    }
  }
}

/// Runs blocking `body` on a new thread (never on Swift's pool) and returns its result.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
