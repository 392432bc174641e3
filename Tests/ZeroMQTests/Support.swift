import Foundation
import Testing
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A publisher and a subscriber are connected once a probe message sent on `topic` arrives:
/// PUB drops everything sent before the subscription has travelled to it. Sends one probe per
/// try and waits up to 10 ms for it; fails the test after `tries`.
func awaitSubscription(
  publisher: Socket, subscriber: Socket, topic: String = "probe", tries: Int = 500,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  for _ in 0..<tries {
    try publisher.send(topic)
    if try subscriber.receive(wait: .timeout(.milliseconds(10))) != nil { return }
  }
  Issue.record("the subscription never reached the publisher", sourceLocation: sourceLocation)
}

/// The number of open file descriptors of this process (entries of `/proc/self/fd`, or
/// `/dev/fd` on Darwin), less the one the listing itself uses.
func openFileDescriptorCount() -> Int {
  #if os(Linux)
    let path = "/proc/self/fd"
  #else
    let path = "/dev/fd"
  #endif
  guard let directory = opendir(path) else { return -1 }
  defer { closedir(directory) }
  var count = 0
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { count += 1 }
  }
  return count - 1
}

extension Socket {
  /// Binds to any free port on the loopback interface and returns the endpoint bound.
  func bindLoopback() throws -> Endpoint {
    try bind(.tcp(host: "127.0.0.1"))
    return try lastEndpoint
  }
}

/// The UTF-8 bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Runs blocking `body` on a thread of its own and returns its result, so that it never holds
/// a thread of Swift's cooperative pool (only two on a 2-core machine).
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// Waits (at most 10 seconds, checking every millisecond) until `condition` holds; callers
/// check the condition afterwards.
func waitUntil(_ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(10)
  while !condition() && ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(1))
  }
}
