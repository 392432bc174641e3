import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback TCP port that refuses every connection for as long as this lives: a socket bound
/// to it that never listens. No other test can bind the port meanwhile, unlike a port a server
/// has just released.
final class ClosedPort {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let socketDescriptor: Int32
  /// `http://127.0.0.1:PORT`.
  let url: URL

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      throw Failure(description: "bind to a loopback port failed: errno \(errno)")
    }
    socketDescriptor = descriptor
    url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
  }

  deinit {
    close(socketDescriptor)
  }
}
