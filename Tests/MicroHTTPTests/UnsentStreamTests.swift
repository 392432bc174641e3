import Foundation
import MicroHTTP
import Testing

/// An event stream whose response can no longer be sent must still terminate, or whoever keeps
/// it (until `onTermination`) keeps it forever.
@Suite struct UnsentStreamTests {
  /// A server whose `/events` handler, once started, waits until the test opens `gate` and
  /// then answers with a new stream, handed to `streams`.
  struct GatedServer {
    let started = Shared(false)
    let gate = Shared(false)
    let streams = Shared<[EventStream]>([])
    let server: HTTPServer

    init() throws {
      var router = Router()
      router.get("/events") { [started, gate, streams] _ in
        started.update { $0 = true }
        _ = await eventually { gate.current }
        let stream = EventStream()
        streams.update { $0.append(stream) }
        return .eventStream(stream)
      }
      server = try HTTPServer(configuration: .init(keepAliveInterval: nil), router: router)
    }

    /// Opens the gate and returns the stream the handler then answers with.
    func answer() async throws -> EventStream {
      gate.update { $0 = true }
      try #require(await eventually { streams.current.count == 1 })
      return streams.current[0]
    }
  }

  @Test func streamAnsweredToAClientThatLeftTerminates() async throws {
    let gated = try GatedServer()
    defer { gated.server.stop() }
    gated.gate.update { $0 = true }
    // Termination handlers run on the daemon's thread: the first stream's holds it while a
    // second client sends its request and leaves, so the daemon reads the request and the
    // close together (as with a client that closes at once) and drops the answer unsent.
    let first = try EventReader(port: gated.server.port, path: "/events")
    _ = try await offPool { try first.head() }
    let held = Shared(false)
    let release = DispatchSemaphore(value: 0)
    gated.streams.current[0].onTermination {
      held.update { $0 = true }
      _ = release.wait(timeout: .now() + 30)
    }
    gated.streams.current[0].finish()
    try #require(await eventually { held.current })
    let client = try RawClient(port: gated.server.port)
    try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    client.close()
    release.signal()
    try #require(await eventually { gated.streams.current.count == 2 })
    #expect(await eventually { gated.streams.current[1].isTerminated })
  }

  @Test func streamAnsweredAfterTheServerStoppedTerminates() async throws {
    let gated = try GatedServer()
    let client = try RawClient(port: gated.server.port)
    try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    try #require(await eventually { gated.started.current })
    gated.server.stop()
    let stream = try await gated.answer()
    #expect(await eventually { stream.isTerminated })
  }
}
