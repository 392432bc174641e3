import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain TCP relay that records every byte it passes, as someone on the network would see
/// them: it listens on a loopback port, and each connection it accepts it joins to `upstream`.
final class TCPRelay: @unchecked Sendable {  // its descriptors are used by its thread only
  /// The port followers connect to.
  let port: UInt16
  private let listener: Int32
  private let upstreamPort = Atomic<UInt16>(0)
  /// The Unix socket relayed to instead of ``upstreamPort``, if one was given.
  private let upstreamPath = Mutex<String?>(nil)
  /// While true the relay passes nothing (both directions stall), as a network that drops
  /// every packet of the connections it holds.
  private let holding = Atomic(false)
  private let running = Atomic(true)
  private let captured = Mutex<[UInt8]>([])
  private let finished = DispatchSemaphore(value: 0)

  /// A relay listening on a free loopback port; call ``start(upstream:)`` to relay.
  init() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
  }

  /// The relay's endpoint, `tcp://127.0.0.1:PORT`.
  var endpoint: String { "tcp://127.0.0.1:\(port)" }

  /// Starts relaying to the loopback port of `upstream` (a `tcp://127.0.0.1:PORT` endpoint).
  func start(upstream: String) {
    upstreamPort.store(UInt16(upstream.split(separator: ":").last!)!, ordering: .relaxed)
    Thread { [self] in
      defer { finished.signal() }
      relay()
    }.start()
  }

  /// Starts relaying to the Unix socket at `path` (a PostgreSQL cluster's `.s.PGSQL.PORT`).
  func start(unixSocket path: String) {
    upstreamPath.withLock { $0 = path }
    Thread { [self] in
      defer { finished.signal() }
      relay()
    }.start()
  }

  /// Stops passing bytes without closing anything, or passes them again (`false`).
  func hold(_ hold: Bool = true) {
    holding.store(hold, ordering: .sequentiallyConsistent)
  }

  /// Every byte passed so far, both directions.
  var bytes: [UInt8] { captured.withLock { $0 } }

  func stop() {
    running.store(false, ordering: .sequentiallyConsistent)
    finished.wait()
    close(listener)
  }

  private func relay() {
    var pairs: [(Int32, Int32)] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while running.load(ordering: .sequentiallyConsistent) {
      var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
      for (a, b) in pairs {
        fds.append(pollfd(fd: a, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: b, events: Int16(POLLIN), revents: 0))
      }
      if holding.load(ordering: .sequentiallyConsistent) {
        usleep(5000)
        continue
      }
      guard poll(&fds, nfds_t(fds.count), 10) > 0 else { continue }
      var closed: Set<Int> = []
      for (index, pair) in pairs.enumerated() {
        for (from, to, slot) in [(pair.0, pair.1, 1 + 2 * index), (pair.1, pair.0, 2 + 2 * index)]
        where fds[slot].revents != 0 {
          let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
          guard count > 0 else {
            closed.insert(index)
            continue
          }
          captured.withLock { $0 += buffer[..<count] }
          _ = buffer.withUnsafeBytes { write(to, $0.baseAddress, count) }
        }
      }
      for index in closed.sorted(by: >) {
        close(pairs[index].0)
        close(pairs[index].1)
        pairs.remove(at: index)
      }
      if fds[0].revents & Int16(POLLIN) != 0 {
        let client = accept(listener, nil, nil)
        if client >= 0, let server = connectUpstream() { pairs.append((client, server)) }
      }
    }
    for (a, b) in pairs {
      close(a)
      close(b)
    }
  }

  private func connectUpstream() -> Int32? {
    if let path = upstreamPath.withLock({ $0 }) { return Self.connectUnix(path) }
    let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = Self.loopback(port: upstreamPort.load(ordering: .relaxed))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(server)
      return nil
    }
    return server
  }

  private static func connectUnix(_ path: String) -> Int32? {
    let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8.prefix(raw.count - 1))
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(server)
      return nil
    }
    return server
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}
