import Synchronization
import Testing
import ZeroMQ

@Suite("IOLoop", .timeLimit(.minutes(1)))
struct IOLoopTests {
  @Test("submit runs the closure on the loop thread and returns its result")
  func submitReturnsResult() async throws {
    let loop = try IOLoop(name: "test-submit")
    let onLoop = try await loop.submit { _ in loop.inLoopThread }
    #expect(onLoop)
    #expect(!loop.inLoopThread)
    let sum = try await loop.submit { _ in (1...10).reduce(0, +) }
    #expect(sum == 55)
    await loop.shutdown()
  }

  @Test("submit rethrows the closure's error")
  func submitRethrows() async throws {
    let loop = try IOLoop()
    await #expect(throws: ZMQError.self) {
      try await loop.submit { scope in
        let socket = try scope.makeSocket(.pub)
        try socket.connect("tcp://127.0.0.1:notaport")
      }
    }
    await loop.shutdown()
  }

  @Test("concurrent callers: every closure runs once, each caller's closures in order")
  func concurrentCallers() async throws {
    let loop = try IOLoop(name: "test-concurrent")
    let log = try await loop.submit { scope in LoopBound([Int: [Int]](), scope: scope) }
    let callers = 8
    let perCaller = 500
    await withTaskGroup(of: Void.self) { group in
      for caller in 0..<callers {
        group.addTask {
          for number in 0..<perCaller {
            if number.isMultiple(of: 2) {
              loop.execute { _ in log.value[caller, default: []].append(number) }
            } else {
              _ = try? await loop.submit { _ in log.value[caller, default: []].append(number) }
            }
          }
        }
      }
    }
    let seen = try await loop.submit { _ in log.value }
    #expect(seen.count == callers)
    for caller in 0..<callers {
      #expect(seen[caller] == Array(0..<perCaller))
    }
    await loop.shutdown()
  }

  @Test("a registered socket's handler feeds an AsyncStream")
  func registeredSocketFeedsStream() async throws {
    let loop = try IOLoop(name: "test-register")
    let (stream, continuation) = AsyncStream.makeStream(of: [[UInt8]].self)
    let pusher = try await loop.submit { scope in
      let pull = try scope.makeSocket(.pull)
      try pull.bind(.inproc("test-register"))
      scope.register(pull) { socket in
        while let parts = try? socket.receiveParts(wait: .nonBlocking) {
          continuation.yield(parts)
        }
      }
      let push = try scope.makeSocket(.push)
      try push.connect(.inproc("test-register"))
      return LoopBound(push, scope: scope)
    }
    for number in 0..<100 {
      loop.execute { _ in try! pusher.value.send(parts: [bytes("n"), [UInt8(number)]]) }
    }
    var received: [UInt8] = []
    for await parts in stream {
      #expect(parts.count == 2)
      received.append(parts[1][0])
      if received.count == 100 { break }
    }
    #expect(received == (0..<100).map(UInt8.init))
    await loop.shutdown()
  }

  @Test("one-shot timers fire once in deadline order; a repeating timer repeats until cancelled")
  func timers() async throws {
    let loop = try IOLoop(name: "test-timers")
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    loop.execute { scope in
      scope.schedule(after: .milliseconds(30)) { continuation.yield("late") }
      scope.schedule(after: .milliseconds(1)) { continuation.yield("early") }
      let cancelled = scope.schedule(after: .milliseconds(5)) { continuation.yield("cancelled") }
      scope.cancel(cancelled)
      var ticks = 0
      var repeating: LoopTimer?
      repeating = scope.schedule(every: .milliseconds(2)) {
        ticks += 1
        continuation.yield("tick")
        if ticks == 3 { scope.cancel(repeating!) }
      }
      scope.schedule(after: .milliseconds(60)) { continuation.finish() }
    }
    var events: [String] = []
    for await event in stream { events.append(event) }
    #expect(events.filter { $0 == "tick" }.count == 3)
    #expect(events.filter { $0 != "tick" } == ["early", "late"])
    await loop.shutdown()
  }

  @Test("shutdown runs queued work, then refuses new work")
  func shutdownRefusesWork() async throws {
    let loop = try IOLoop(name: "test-shutdown")
    let ran = Atomic<Int>(0)
    for _ in 0..<100 {
      loop.execute { _ in ran.add(1, ordering: .relaxed) }
    }
    await loop.shutdown()
    #expect(ran.load(ordering: .relaxed) == 100)
    #expect(!loop.execute { _ in })
    await #expect(throws: IOLoopClosedError.self) {
      try await loop.submit { _ in 1 }
    }
    await loop.shutdown()  // a second call returns at once
  }

  @Test("shutdown closes the sockets the loop owns and frees their descriptors")
  func shutdownClosesSockets() async throws {
    let before = openFileDescriptorCount()
    for _ in 0..<100 {
      let loop = try IOLoop(name: "test-close")
      let endpoint = try await loop.submit { scope in
        let router = try scope.makeSocket(.router)
        let endpoint = try router.bindLoopback()
        scope.register(router) { _ in }
        let dealer = try scope.makeSocket(.dealer)
        try dealer.connect(endpoint)
        return endpoint
      }
      #expect(endpoint.port != nil)
      await loop.shutdown()
    }
    let after = openFileDescriptorCount()
    // Other suites run in parallel and hold descriptors of their own; 100 leaking loops would
    // leave at least 100 * 5 (context, pipe, listener, two connections).
    #expect(after - before < 300)
  }
}

@Suite("IOLoop streams", .timeLimit(.minutes(1)))
struct IOLoopStreamTests {
  @Test("messages(from:) streams a subscriber's multipart messages to a task")
  func messagesStream() async throws {
    let loop = try IOLoop(name: "test-stream")
    let (updates, publisher) = try await loop.submit { scope in
      let publisher = try scope.makeSocket(.pub)
      try publisher.bind(.inproc("test-stream"))
      let subscriber = try scope.makeSocket(.sub)
      try subscriber.subscribe(to: "d")
      try subscriber.connect(.inproc("test-stream"))
      return (scope.messages(from: subscriber), LoopBound(publisher, scope: scope))
    }
    // Publish on a repeating timer until the consumer has seen enough: PUB drops whatever
    // it sends before the subscription arrives, so the first numbers may be missing.
    let ticker = try await loop.submit { scope in
      var number: UInt8 = 0
      return scope.schedule(every: .milliseconds(1)) {
        number &+= 1
        _ = try? publisher.value.send(parts: [bytes("d"), [number]], wait: .nonBlocking)
        _ = try? publisher.value.send(parts: [bytes("x"), [number]], wait: .nonBlocking)
      }
    }
    var numbers: [UInt8] = []
    for await frames in updates {
      #expect(frames.count == 2)
      #expect(frames.first == bytes("d"))
      numbers.append(frames[1][0])
      if numbers.count == 5 { break }
    }
    #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 &+ 1 == $1 })
    loop.execute { scope in scope.cancel(ticker) }
    await loop.shutdown()
  }
}
