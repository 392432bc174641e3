import Foundation
import Testing

@testable import MicroHTTP

@Suite struct EventStreamTests {
  /// A server whose `/events` hands each new stream to `streams`.
  /// A client of `server`'s event stream that has read the head and the welcome event, once
  /// the server holds the stream.
  func connectPastWelcome(
    _ server: HTTPServer, _ streams: Shared<[EventStream]>
  ) async throws
    -> EventReader
  {
    let reader = try EventReader(port: server.port, path: "/events")
    _ = try await offPool { try reader.head() }
    _ = try await offPool { try reader.next() }
    try #require(await eventually { streams.current.count == 1 })
    return reader
  }

  func makeServer(keepAlive: Duration? = nil) throws -> (HTTPServer, Shared<[EventStream]>) {
    let streams = Shared<[EventStream]>([])
    var router = Router()
    router.get("/events") { _ in
      let stream = EventStream()
      stream.send(ServerSentEvent(event: "hello", data: "welcome"))
      streams.update { $0.append(stream) }
      return .eventStream(stream)
    }
    let server = try HTTPServer(
      configuration: .init(keepAliveInterval: keepAlive), router: router)
    return (server, streams)
  }

  @Test func streamsEventsPushedFromAnotherThread() async throws {
    let (server, streams) = try makeServer()
    defer { server.stop() }
    let reader = try EventReader(port: server.port, path: "/events")
    let head = try await offPool { try reader.head() }
    #expect(head.status == 200)
    #expect(head.headers["content-type"] == "text/event-stream")
    #expect(try await offPool { try reader.next() } == "event: hello\ndata: welcome")
    try #require(await eventually { streams.current.count == 1 })
    let stream = streams.current[0]
    let pusher = Thread {
      for index in 1...3 { stream.send(ServerSentEvent(id: "\(index)", data: "event \(index)")) }
    }
    pusher.start()
    for index in 1...3 {
      #expect(try await offPool { try reader.next() } == "id: \(index)\ndata: event \(index)")
    }
  }

  @Test func eventsFromManyThreadsAllArriveInEachThreadsOrder() async throws {
    let (server, streams) = try makeServer()
    defer { server.stop() }
    let reader = try await connectPastWelcome(server, streams)
    let stream = streams.current[0]
    let threads = 4
    let perThread = 250
    for thread in 0..<threads {
      Thread {
        for index in 0..<perThread {
          stream.send(ServerSentEvent(event: "t\(thread)", data: "\(index)"))
        }
      }.start()
    }
    let received = try await offPool { () -> [String: [Int]] in
      var byThread: [String: [Int]] = [:]
      for _ in 0..<(threads * perThread) {
        guard let block = try reader.next() else { break }
        let lines = block.split(separator: "\n")
        byThread[String(lines[0].dropFirst(7)), default: []].append(Int(lines[1].dropFirst(6))!)
      }
      return byThread
    }
    #expect(received.count == threads)
    for (_, indices) in received { #expect(indices == Array(0..<perThread)) }
  }

  @Test func oneEventReachesManyClients() async throws {
    let (server, streams) = try makeServer()
    defer { server.stop() }
    let readers = try (0..<6).map { _ in try EventReader(port: server.port, path: "/events") }
    for reader in readers {
      _ = try await offPool { try reader.head() }
      _ = try await offPool { try reader.next() }
    }
    try #require(await eventually { streams.current.count == readers.count })
    for stream in streams.current { stream.send(ServerSentEvent(event: "bookmark", data: "a/b")) }
    for reader in readers {
      #expect(try await offPool { try reader.next() } == "event: bookmark\ndata: a/b")
    }
  }

  @Test func eventsWaitWhileIdleAndArriveWhenSent() async throws {
    let (server, streams) = try makeServer()
    defer { server.stop() }
    let reader = try await connectPastWelcome(server, streams)
    // Once the connection is suspended, a send must resume it.
    try #require(await eventually { streams.current[0].isSuspended })
    streams.current[0].send(ServerSentEvent(data: "late"))
    #expect(try await offPool { try reader.next() } == "data: late")
  }

  @Test func finishEndsTheResponse() async throws {
    let (server, streams) = try makeServer()
    defer { server.stop() }
    let reader = try await connectPastWelcome(server, streams)
    let stream = streams.current[0]
    stream.send(ServerSentEvent(data: "last"))
    stream.finish()
    #expect(stream.send(ServerSentEvent(data: "ignored")) == false)
    #expect(try await offPool { try reader.next() } == "data: last")
    #expect(try await offPool { try reader.next() } == nil)
    #expect(await eventually { stream.isTerminated })
  }

  @Test func clientDisconnectEndsTheStream() async throws {
    let (server, streams) = try makeServer(keepAlive: .milliseconds(20))
    defer { server.stop() }
    let reader = try await connectPastWelcome(server, streams)
    let stream = streams.current[0]
    let terminated = Shared(false)
    stream.onTermination { terminated.update { $0 = true } }
    reader.client.close()
    #expect(await eventually { terminated.current })
    #expect(stream.isFinished)
    #expect(stream.send(ServerSentEvent(data: "nobody listens")) == false)
  }

  @Test func serverStopEndsOpenStreams() async throws {
    let (server, streams) = try makeServer()
    let reader = try await connectPastWelcome(server, streams)
    let stream = streams.current[0]
    server.stop()
    #expect(stream.isTerminated)
    // The client sees the stream end (the last chunk or the connection closing).
    let ended: Bool
    do { ended = try await offPool { try reader.next() } == nil } catch { ended = true }
    #expect(ended)
  }

  @Test func slowClientOverTheBufferLimitIsEnded() async throws {
    let (server, client, stream) = try await openStreamThatIsNotRead(maximumStreamBuffer: 1024)
    defer { server.stop() }
    defer { withExtendedLifetime(client) {} }
    // Sent faster than any socket drains: the buffer passes 1 KiB and the stream ends.
    let payload = String(repeating: "x", count: 4096)
    var accepted = 0
    while stream.send(ServerSentEvent(data: payload)), accepted < 100_000 { accepted += 1 }
    #expect(stream.isFinished)
  }

  @Test func terminationHandlerAddedLateRunsAtOnce() async throws {
    let (server, streams) = try makeServer()
    let reader = try EventReader(port: server.port, path: "/events")
    _ = try await offPool { try reader.head() }
    try #require(await eventually { streams.current.count == 1 })
    server.stop()
    let ran = Shared(false)
    streams.current[0].onTermination { ran.update { $0 = true } }
    #expect(ran.current)
  }
}

/// What one event stream may hold for a client that does not read: never more than its bound,
/// before its response starts as after.
@Suite struct EventStreamBoundTests {
  @Test func streamNotYetSentEndsPastItsBuffer() {
    let stream = EventStream(maximumBuffer: 4096)
    let event = ServerSentEvent(data: String(repeating: "x", count: 1000))
    var accepted = 0
    while stream.send(event), accepted < 1000 { accepted += 1 }
    // Each event is 1008 bytes (`data: `, the text, a blank line): the fifth passes 4096.
    #expect(accepted == 4)
    #expect(stream.isFinished)
  }

  @Test func clientThatStopsReadingEndsItsStream() async throws {
    let (server, client, stream) = try await openStreamThatIsNotRead(
      maximumStreamBuffer: 256 << 10)
    defer { server.stop() }
    defer { withExtendedLifetime(client) {} }
    try #require(await eventually { stream.isSuspended })
    // 64 MiB offered, 64 KiB at a time, each once the last is taken or the buffer is full:
    // what the server holds stays within the limit, and the stream ends long before.
    let event = ServerSentEvent(data: String(repeating: "y", count: 64 << 10))
    var offered = 0
    while offered < 64 << 20, stream.send(event) { offered += 64 << 10 }
    #expect(stream.isFinished)
    #expect(offered < 64 << 20)
  }
}

/// A server whose `/events` answers with a stream buffering at most `maximumStreamBuffer`
/// bytes, a client that asked for it and never reads a byte of the response, and the stream.
func openStreamThatIsNotRead(
  maximumStreamBuffer: Int
) async throws -> (HTTPServer, RawClient, EventStream) {
  let streams = Shared<[EventStream]>([])
  var router = Router()
  router.get("/events") { _ in
    let stream = EventStream()
    streams.update { $0.append(stream) }
    return .eventStream(stream)
  }
  let server = try HTTPServer(
    configuration: .init(keepAliveInterval: nil, maximumStreamBuffer: maximumStreamBuffer),
    router: router)
  let client = try RawClient(port: server.port)
  try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
  try #require(await eventually { streams.current.count == 1 })
  return (server, client, streams.current[0])
}
