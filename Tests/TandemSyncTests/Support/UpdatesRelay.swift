import Foundation
import Synchronization
import ZeroMQ

/// Stands between a leader's updates socket and its followers as the network does: it passes on
/// what the leader publishes and the followers' subscriptions, and reconnects by itself to a
/// leader started again at the same endpoint. It never passes on a `BYE`, as a killed leader
/// sends none, and while ``hold()`` is in force it holds back what the leader publishes, as a
/// slow connection would, until ``release(droppingHeld:)``.
final class UpdatesRelay: @unchecked Sendable {  // its sockets are used by its thread only
  /// Where followers subscribe: a leader announces it as its updates endpoint.
  let endpoint: String
  private let context = Context()
  private let upstream: Socket
  private let downstream: Socket
  /// Whether to hold back what the leader publishes, and whether to drop what was held.
  private let holding = Mutex((holding: false, dropping: false))
  private let running = Atomic(true)
  private let finished = DispatchSemaphore(value: 0)

  init() throws {
    downstream = try Socket(context, .xpub)
    try downstream.set(.linger, .zero)
    try downstream.bind(Endpoint(parsing: "tcp://127.0.0.1:*")!)
    endpoint = try downstream.lastEndpoint.description
    upstream = try Socket(context, .xsub)
    try upstream.set(.linger, .zero)
  }

  /// Connects to the leader's updates endpoint and starts relaying, on a thread of its own.
  func start(upstream endpoint: String) {
    try! upstream.connect(Endpoint(parsing: endpoint)!)
    Thread { [self] in
      defer { finished.signal() }
      relay()
    }.start()
  }

  /// Holds back what the leader publishes from now on.
  func hold() { holding.withLock { $0.holding = true } }

  /// Passes on what comes from now on, and what was held unless `droppingHeld` (lost, as the
  /// last messages of a killed leader are).
  func release(droppingHeld: Bool = false) {
    holding.withLock { $0 = (holding: false, dropping: droppingHeld) }
  }

  /// Stops relaying and waits for the thread to end.
  func stop() {
    running.store(false, ordering: .sequentiallyConsistent)
    finished.wait()
  }

  private func relay() {
    let poller = Poller()
    poller.add(upstream)
    poller.add(downstream)
    var held: [[[UInt8]]] = []
    while running.load(ordering: .sequentiallyConsistent) {
      _ = try? poller.poll(timeout: .milliseconds(10))
      while let parts = try? upstream.receiveParts(wait: .nonBlocking) {
        if parts.first != Array("BYE".utf8) { held.append(parts) }
      }
      while let subscription = try? downstream.receiveParts(wait: .nonBlocking) {
        _ = try? upstream.send(parts: subscription, wait: .nonBlocking)
      }
      let (holding, dropping) = holding.withLock { state in
        defer { state.dropping = false }
        return state
      }
      if dropping { held.removeAll() }
      guard !holding else { continue }
      for parts in held { _ = try? downstream.send(parts: parts, wait: .nonBlocking) }
      held.removeAll()
    }
    upstream.close()
    downstream.close()
  }
}
