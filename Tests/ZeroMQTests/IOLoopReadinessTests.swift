import Synchronization
import Testing
import ZeroMQ

/// The loop waits on socket descriptors, which only signal news once; these tests check that no
/// message waits unseen when a handler leaves some behind or when other work uses the socket.
@Suite("IOLoop readiness", .timeLimit(.minutes(1)))
struct IOLoopReadinessTests {
  @Test("a handler that reads one message per turn is called until the socket is empty")
  func oneMessagePerTurn() async throws {
    let loop = try IOLoop(name: "test-one-per-turn")
    let received = Atomic<Int>(0)
    let pusher = try await loop.submit { scope in
      let pull = try scope.makeSocket(.pull)
      try pull.bind(.inproc("test-one-per-turn"))
      scope.register(pull) { socket in
        if (try? socket.receive(wait: .nonBlocking)) != nil { received.add(1, ordering: .relaxed) }
      }
      let push = try scope.makeSocket(.push)
      try push.connect(.inproc("test-one-per-turn"))
      return LoopBound(push, scope: scope)
    }
    // All 500 arrive in one job: after the first wake-up no descriptor signals again, and the
    // handler must still be called once per message.
    loop.execute { _ in
      for number in 0..<500 { try! pusher.value.send("message \(number)") }
    }
    try await waitUntil { received.load(ordering: .relaxed) == 500 }
    #expect(received.load(ordering: .relaxed) == 500)
    await loop.shutdown()
  }

  @Test("a message whose wake-up a job's send consumed is still handled")
  func sendingDoesNotHideInput() async throws {
    let loop = try IOLoop(name: "test-send-and-receive")
    let received = Atomic<Int>(0)
    let looped = try await loop.submit { scope in
      let socket = try scope.makeSocket(.pair)
      try socket.bind(.inproc("test-send-and-receive"))
      scope.register(socket) { socket in
        while (try? socket.receive(wait: .nonBlocking)) != nil {
          received.add(1, ordering: .relaxed)
        }
      }
      return LoopBound(socket, scope: scope)
    }
    let peer = try Socket(loop.context, .pair)
    defer { peer.close() }
    try peer.connect(.inproc("test-send-and-receive"))
    let running = Atomic<Bool>(false)
    let messageSent = Atomic<Bool>(false)
    loop.execute { _ in
      running.store(true, ordering: .releasing)
      while !messageSent.load(ordering: .acquiring) {}
      // libzmq processes a socket's pending commands in a send at most once a millisecond or
      // so (a TSC throttle); past that, this send takes the command that announced the
      // message, and with it the descriptor's signal. Only asking the socket finds the message.
      let start = ContinuousClock.now
      while ContinuousClock.now - start < .milliseconds(3) {}
      _ = try? looped.value.send("from the loop", wait: .nonBlocking)
    }
    while !running.load(ordering: .acquiring) { await Task.yield() }
    try peer.send("to the loop")
    messageSent.store(true, ordering: .releasing)
    try await waitUntil { received.load(ordering: .relaxed) == 1 }
    #expect(received.load(ordering: .relaxed) == 1)
    #expect(try peer.receive(wait: .timeout(.seconds(5))) != nil)
    await loop.shutdown()
  }
}
