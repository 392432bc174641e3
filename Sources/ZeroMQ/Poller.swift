import CZeroMQ

/// Waits on several sockets (and plain file descriptors) at once, with a timeout (`zmq_poll`).
///
/// ```swift
/// let poller = Poller()
/// let updates = poller.add(subscriber)
/// let replies = poller.add(dealer)
/// if try poller.poll(timeout: .seconds(1)) > 0 {
///   if poller.events(at: updates).contains(.readable) { ... }
///   if poller.events(at: replies).contains(.readable) { ... }
/// }
/// ```
///
/// A poller holds its sockets and so keeps them alive; like them, it stays on one thread.
public final class Poller {
  private var sockets: [Socket?] = []
  private var items: [zmq_pollitem_t] = []

  /// An empty poller.
  public init() {}

  /// How many sockets and descriptors are polled.
  public var count: Int { items.count }

  /// Adds `socket`, polled for `events`; returns its index for ``events(at:)``.
  @discardableResult
  public func add(_ socket: Socket, events: PollEvents = .readable) -> Int {
    sockets.append(socket)
    items.append(zmq_pollitem_t(socket: socket.handle, fd: 0, events: events.rawValue, revents: 0))
    return items.count - 1
  }

  /// Adds a plain file descriptor, polled for `events`; returns its index.
  @discardableResult
  public func add(fileDescriptor: Int32, events: PollEvents = .readable) -> Int {
    sockets.append(nil)
    items.append(
      zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: events.rawValue, revents: 0))
    return items.count - 1
  }

  /// Removes every socket and descriptor.
  public func removeAll() {
    sockets.removeAll()
    items.removeAll()
  }

  /// Waits until at least one item is ready or `timeout` passes (`nil` waits forever, zero
  /// only looks); returns how many items are ready, zero on timeout.
  @discardableResult
  public func poll(timeout: Duration?) throws(ZMQError) -> Int {
    for index in items.indices {
      if let socket = sockets[index] { items[index].socket = socket.handle }
      items[index].revents = 0
    }
    let milliseconds =
      timeout.map { $0 < .zero ? -1 : Int(Socket.roundedUpMilliseconds($0)) } ?? -1
    let count = items.count
    return Int(
      try zmqCall("zmq_poll") {
        items.withUnsafeMutableBufferPointer {
          zmq_poll($0.baseAddress, Int32(count), milliseconds)
        }
      })
  }

  /// The events the last ``poll(timeout:)`` reported for the item at `index`.
  public func events(at index: Int) -> PollEvents {
    PollEvents(rawValue: items[index].revents)
  }

  /// Whether the last poll found `socket` readable.
  public func isReadable(_ socket: Socket) -> Bool {
    guard let index = sockets.firstIndex(where: { $0 === socket }) else { return false }
    return events(at: index).contains(.readable)
  }
}
