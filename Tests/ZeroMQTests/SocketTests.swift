import Foundation
import Testing
import ZeroMQ

@Suite("Sockets, options, poller and resources", .timeLimit(.minutes(2)))
struct SocketTests {
  let context = Context()

  @Test("binding tcp://127.0.0.1:* reads back the chosen port")
  func lastEndpoint() throws {
    let socket = try Socket(context, .rep)
    let endpoint = try socket.bindLoopback()
    #expect(endpoint.transport == "tcp")
    #expect(endpoint.description.hasPrefix("tcp://127.0.0.1:"))
    #expect((endpoint.port ?? 0) > 0)
    try socket.unbind(endpoint)
    #expect(throws: ZMQError.self) { try socket.unbind(endpoint) }
  }

  @Test("endpoints are typed and validated")
  func endpoints() {
    #expect(Endpoint.tcp(host: "127.0.0.1").description == "tcp://127.0.0.1:*")
    #expect(Endpoint.tcp(host: "::1", port: 80).description == "tcp://[::1]:80")
    #expect(Endpoint.tcp(host: "::1", port: 80).port == 80)
    #expect(Endpoint.ipc(path: "/tmp/x").description == "ipc:///tmp/x")
    #expect(Endpoint.inproc("a").address == "a")
    #expect(Endpoint(parsing: "tcp://host:1") == .tcp(host: "host", port: 1))
    #expect(Endpoint(parsing: "nonsense") == nil)
    #expect(Endpoint(parsing: "smtp://x") == nil)
    #expect(Endpoint(parsing: "tcp://") == nil)
  }

  @Test("a failing call throws ZMQError with errno, message and the call")
  func errors() throws {
    let first = try Socket(context, .pub)
    let endpoint = try first.bindLoopback()
    let second = try Socket(context, .pub)
    do {
      try second.bind(endpoint)
      Issue.record("binding a bound port succeeded")
    } catch {
      #expect(error.code == .addressInUse)
      #expect(error.call == "zmq_bind(\(endpoint))")
      #expect(!error.message.isEmpty)
      #expect(error.description.contains("errno"))
    }
    #expect(throws: ZMQError.self) { try second.connect("tcp://127.0.0.1:notaport") }
  }

  @Test("typed options read back what was set")
  func options() throws {
    let socket = try Socket(context, .dealer)
    try socket.set(.linger, .milliseconds(250))
    #expect(try socket.get(.linger) == .milliseconds(250))
    try socket.set(.linger, .seconds(-1))
    #expect(try socket.get(.linger) == .milliseconds(-1))
    try socket.set(.sendHighWaterMark, 123)
    #expect(try socket.get(.sendHighWaterMark) == 123)
    try socket.set(.receiveHighWaterMark, 456)
    #expect(try socket.get(.receiveHighWaterMark) == 456)
    try socket.set(.routingID, bytes("me"))
    #expect(try socket.get(.routingID) == bytes("me"))
    try socket.set(.immediate, true)
    #expect(try socket.get(.immediate))
    try socket.set(.heartbeatInterval, .milliseconds(500))
    #expect(try socket.get(.heartbeatInterval) == .milliseconds(500))
    try socket.set(.heartbeatTimeout, .seconds(2))
    #expect(try socket.get(.heartbeatTimeout) == .seconds(2))
    try socket.set(.heartbeatTTL, .seconds(3))
    #expect(try socket.get(.heartbeatTTL) == .seconds(3))
    try socket.set(.reconnectInterval, .milliseconds(50))
    #expect(try socket.get(.reconnectInterval) == .milliseconds(50))
    try socket.set(.reconnectIntervalMax, .seconds(1))
    #expect(try socket.get(.reconnectIntervalMax) == .seconds(1))
    try socket.set(.zapDomain, "tandem")
    #expect(try socket.get(.zapDomain) == "tandem")
    try socket.set(.maxMessageSize, 1 << 20)
    #expect(try socket.get(.maxMessageSize) == 1 << 20)
    #expect(try socket.get(.events) == [])

    let router = try Socket(context, .router)
    try router.set(.routerHandover, true)
    try router.set(.routerMandatory, true)
    let xpub = try Socket(context, .xpub)
    try xpub.set(.xpubVerbose, true)
    try xpub.set(.xpubNoDrop, true)
    #expect(throws: ZMQError(code: .invalidArgument, call: "zmq_setsockopt(ZMQ_XPUB_VERBOSE)")) {
      try socket.set(.xpubVerbose, true)
    }
  }

  @Test("the poller times out on idle sockets and reports the readable one")
  func pollerTimeouts() throws {
    let first = try Socket(context, .pull)
    try first.bind(.inproc("poller-first"))
    let second = try Socket(context, .pull)
    try second.bind(.inproc("poller-second"))
    let poller = Poller()
    let firstIndex = poller.add(first)
    let secondIndex = poller.add(second)

    #expect(try poller.poll(timeout: .zero) == 0)
    let clock = ContinuousClock()
    let start = clock.now
    #expect(try poller.poll(timeout: .milliseconds(40)) == 0)
    #expect(clock.now - start >= .milliseconds(40))

    let push = try Socket(context, .push)
    try push.connect(.inproc("poller-second"))
    try push.send("wake")
    #expect(try poller.poll(timeout: .seconds(5)) == 1)
    #expect(poller.events(at: firstIndex) == [])
    #expect(poller.events(at: secondIndex) == .readable)
    #expect(poller.isReadable(second))
    #expect(try second.poll([.readable], timeout: .zero) == .readable)
  }

  @Test("1,000 open/close cycles leak no file descriptors")
  func noDescriptorLeak() async {
    // In a process of its own, where no other suite opens descriptors meanwhile, so the count
    // is exact: a leak of even one descriptor per cycle would show as 1,000.
    await #expect(processExitsWith: .success) {
      try openAndCloseSockets()  // libzmq's one-time setup happens here
      let before = openFileDescriptorCount()
      for _ in 0..<1_000 { try openAndCloseSockets() }
      let grown = openFileDescriptorCount() - before
      guard grown < 20 else {
        print("\(grown) descriptors more after 1,000 cycles")
        exit(1)
      }
    }
  }

  @Test("a closed socket reports it; closing twice is harmless")
  func closeTwice() throws {
    let socket = try Socket(context, .pair)
    #expect(!socket.isClosed)
    socket.close()
    socket.close()
    #expect(socket.isClosed)
    #expect(SocketKind.allCases.count == 11)
    #expect(SocketKind.router.description == "ROUTER")
  }
}

@Suite("Context", .timeLimit(.minutes(1)))
struct ContextTests {
  @Test("a non-blocky context gives its sockets a linger of zero")
  func nonBlocky() throws {
    #expect(try Socket(Context(), .dealer).get(.linger) == .milliseconds(-1))
    let socket = try Socket(Context(blocky: false), .dealer)
    #expect(try socket.get(.linger) == .zero)
    // Unsent messages for a peer that never comes do not hold up the context's termination.
    try socket.connect(.tcp(host: "127.0.0.1", port: 9))
    try socket.send("never delivered", wait: .nonBlocking)
  }

  @Test("libzmq reports its version")
  func version() {
    #expect(Context.version.major == 4)
  }
}

/// One cycle of the descriptor test: a context, a ROUTER and a DEALER connected over loopback,
/// a message, a monitor, all closed again.
private func openAndCloseSockets() throws {
  struct NoMessage: Error {}
  let context = Context()
  let router = try Socket(context, .router)
  let endpoint = try router.bindLoopback()
  let dealer = try Socket(context, .dealer)
  try dealer.connect(endpoint)
  try dealer.send("ping")
  guard try router.receiveParts(wait: .timeout(.seconds(30))) != nil else { throw NoMessage() }
  let monitor = try dealer.monitor()
  monitor.stop()
  dealer.close()
  router.close()
}
