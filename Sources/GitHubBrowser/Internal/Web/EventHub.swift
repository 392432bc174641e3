import Foundation
import MicroHTTP
import Synchronization

/// The web front end's open event streams, each with its client's session, and the latest
/// replica state and connection: every change recomputes each client's ``BrowserView`` and
/// sends it to that client only when it differs from the last one sent.
final class EventHub: Sendable {
  private struct Client {
    var session: String
    var viewer: BrowserView.Viewer
    var stream: EventStream
    var lastSent: Data?
  }

  private struct Hub {
    var clients: [Int: Client] = [:]
    var nextID = 0
    var state = BrowserState()
    var connection = BrowserView.Connection.live
    var eventNumber = 0
    var finishing = false
  }

  private let hub = Mutex(Hub())
  /// Called with a session whose last stream here ended, unless the hub was finishing.
  private let lastStreamEnded: @Sendable (_ session: String, _ hub: EventHub) -> Void

  /// A hub that tells `lastStreamEnded` when a session has no stream left.
  init(lastStreamEnded: @escaping @Sendable (_ session: String, _ hub: EventHub) -> Void) {
    self.lastStreamEnded = lastStreamEnded
  }

  /// How many event streams are open.
  var count: Int { hub.withLock { $0.clients.count } }

  /// The connection the views show.
  var connection: BrowserView.Connection { hub.withLock { $0.connection } }

  /// Whether a stream of `session` is open.
  func hasStream(of session: String) -> Bool {
    hub.withLock { $0.clients.values.contains { $0.session == session } }
  }

  /// The view of `session` now, as `viewer` may see it.
  func view(of session: String, viewer: BrowserView.Viewer) -> BrowserView {
    hub.withLock {
      BrowserView(state: $0.state, session: session, connection: $0.connection, viewer: viewer)
    }
  }

  /// The state the views are made from now.
  var state: BrowserState { hub.withLock { $0.state } }

  /// Adds `stream` for `session`, whose browser is `viewer`, and sends it the current view at
  /// once.
  func add(_ stream: EventStream, session: String, viewer: BrowserView.Viewer) {
    let id = hub.withLock { hub in
      defer { hub.nextID += 1 }
      hub.clients[hub.nextID] = Client(session: session, viewer: viewer, stream: stream)
      return hub.nextID
    }
    stream.onTermination { [weak self] in
      guard let self else { return }
      let ended = hub.withLock { hub -> String? in
        guard let client = hub.clients.removeValue(forKey: id), !hub.finishing else { return nil }
        return hub.clients.values.contains { $0.session == client.session } ? nil : client.session
      }
      if let ended { lastStreamEnded(ended, self) }
    }
    publish()
  }

  /// Records a new replica state and sends the views it changed.
  func update(state: BrowserState) {
    hub.withLock { $0.state = state }
    publish()
  }

  /// Records a new connection state and sends it to every client.
  func update(connection: BrowserView.Connection) {
    hub.withLock { $0.connection = connection }
    publish()
  }

  /// Ends every stream.
  func finishAll() {
    let streams = hub.withLock { hub in
      hub.finishing = true
      return hub.clients.values.map(\.stream)
    }
    for stream in streams { stream.finish() }
  }

  /// Sends each client its view when it changed. Runs under the hub's lock, so views go out in
  /// the order of the updates.
  private func publish() {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    hub.withLock { hub in
      for (id, client) in hub.clients {
        let view = BrowserView(
          state: hub.state, session: client.session, connection: hub.connection,
          viewer: client.viewer)
        guard let data = try? encoder.encode(view), data != client.lastSent else { continue }
        hub.eventNumber += 1
        client.stream.send(
          ServerSentEvent(
            id: String(hub.eventNumber), event: "view", data: String(decoding: data, as: UTF8.self))
        )
        hub.clients[id]?.lastSent = data
      }
    }
  }
}
