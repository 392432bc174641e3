import Foundation
import MicroHTTP
import Synchronization

/// Waits, checking every few milliseconds, until `condition` holds or `timeout` passes (a
/// deadline only: it returns as soon as the condition holds, so it is generous for loaded
/// machines).
func eventually(
  _ timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  while clock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}

/// A thread-safe box the tests share between handlers and the test body.
final class Shared<Value: Sendable>: Sendable {
  private let value: Mutex<Value>
  init(_ value: Value) { self.value = Mutex(value) }
  var current: Value { value.withLock { $0 } }
  func update<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R {
    value.withLock { body(&$0) }
  }
}

/// Reads Server-Sent Events (as text blocks) from a chunked `text/event-stream` response.
final class EventReader: @unchecked Sendable {
  let client: RawClient
  private var text = ""
  private(set) var ended = false

  init(port: Int, path: String) throws {
    client = try RawClient(port: port)
    try client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
  }

  func head() throws -> (status: Int, headers: [String: String]) {
    try client.readHead()
  }

  /// The next event block that is not only comments, or nil when the stream ended.
  func next() throws -> String? {
    while true {
      if let range = text.range(of: "\n\n") {
        let block = String(text[..<range.lowerBound])
        text.removeSubrange(..<range.upperBound)
        if block.split(separator: "\n").allSatisfy({ $0.hasPrefix(":") }) { continue }
        return block
      }
      guard let chunk = try client.readChunk() else {
        ended = true
        return nil
      }
      text += String(decoding: chunk, as: UTF8.self)
    }
  }
}

/// Runs blocking socket code on a thread of its own, so that it never ties up the cooperative
/// pool the server's handlers need (on a 2-core machine that would stall them).
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.start()
  }
}
