import Synchronization
import Testing
import ZeroMQ

@Suite("Messaging", .timeLimit(.minutes(1)))
struct MessagingTests {
  let context = Context()

  @Test("a SUB receives only the topics it subscribed to")
  func topicFiltering() throws {
    let publisher = try Socket(context, .pub)
    let endpoint = try publisher.bindLoopback()
    let subscriber = try Socket(context, .sub)
    try subscriber.subscribe(to: "a.")
    try subscriber.subscribe(to: "probe")
    try subscriber.connect(endpoint)
    try awaitSubscription(publisher: publisher, subscriber: subscriber)

    for topic in ["b.1", "a.1", "ab", "b.2", "a.2", "a.end"] {
      try publisher.send(topic)
    }
    var received: [String] = []
    while received.last != "a.end" {
      let message = try #require(try subscriber.receive(wait: .timeout(.seconds(5))))
      if message.string != "probe" { received.append(message.string) }
    }
    #expect(received == ["a.1", "a.2", "a.end"])
  }

  @Test("an XPUB receives its subscribers' subscribe and unsubscribe messages")
  func xpubSubscriptions() throws {
    let publisher = try Socket(context, .xpub)
    try publisher.set(.xpubVerbose, true)
    let endpoint = try publisher.bindLoopback()
    let subscriber = try Socket(context, .sub)
    try subscriber.connect(endpoint)

    try subscriber.subscribe(to: "deltas")
    let subscribe = try #require(try publisher.receive(wait: .timeout(.seconds(5))))
    #expect(subscribe.bytes == [1] + bytes("deltas"))

    try subscriber.unsubscribe(from: "deltas")
    let unsubscribe = try #require(try publisher.receive(wait: .timeout(.seconds(5))))
    #expect(unsubscribe.bytes == [0] + bytes("deltas"))
  }

  @Test("ROUTER and DEALER exchange multipart messages addressed by routing id")
  func routerDealerMultipart() throws {
    let router = try Socket(context, .router)
    try router.set(.routerMandatory, true)
    let endpoint = try router.bindLoopback()
    let dealer = try Socket(context, .dealer)
    try dealer.set(.routingID, bytes("dealer-1"))
    try dealer.connect(endpoint)

    try dealer.send(parts: [bytes("hello"), [], bytes("world")])
    let request = try #require(try router.receiveParts(wait: .timeout(.seconds(5))))
    #expect(request == [bytes("dealer-1"), bytes("hello"), [], bytes("world")])

    try router.send(parts: [request[0], bytes("reply"), [0, 1, 2]])
    let reply = try #require(try dealer.receiveMessages(wait: .timeout(.seconds(5))))
    #expect(reply.map(\.bytes) == [bytes("reply"), [0, 1, 2]])
    #expect(reply.map(\.hasMore) == [true, false])

    #expect(throws: ZMQError.self) {
      try router.send(parts: [bytes("nobody"), bytes("lost")])
    }
    do {
      try router.send(parts: [bytes("nobody"), bytes("lost")])
    } catch {
      #expect(error.code == .hostUnreachable)
      #expect(error.call == "zmq_send")
    }
  }

  @Test("a mandatory ROUTER refuses a message for a full queue at once instead of dropping it")
  func routerFullQueue() throws {
    let router = try Socket(context, .router)
    try router.set(.routerMandatory, true)
    try router.set(.sendHighWaterMark, 5)
    try router.bind(.inproc("router-full"))
    let dealer = try Socket(context, .dealer)
    try dealer.set(.routingID, bytes("slow"))
    try dealer.set(.receiveHighWaterMark, 5)
    try dealer.connect(.inproc("router-full"))
    try dealer.send("hello")
    _ = try #require(try router.receiveParts(wait: .timeout(.seconds(5))))
    var queued = 0
    while try router.send(parts: [bytes("slow"), bytes("reply")], wait: .nonBlocking) {
      queued += 1
      try #require(queued < 1_000, "the queue never filled")
    }
    // Not sent, and said so (EAGAIN): the peer still gets every message queued before.
    var received = 0
    while try dealer.receive(wait: .nonBlocking) != nil { received += 1 }
    #expect(received == queued)
  }

  @Test("a PUB with a small high-water mark drops what its subscriber cannot take")
  func highWaterMarkDrops() throws {
    let publisher = try Socket(context, .pub)
    try publisher.set(.sendHighWaterMark, 10)
    try publisher.bind(.inproc("hwm-drops"))
    let subscriber = try Socket(context, .sub)
    try subscriber.set(.receiveHighWaterMark, 10)
    try subscriber.subscribe()
    try subscriber.connect(.inproc("hwm-drops"))
    try awaitSubscription(publisher: publisher, subscriber: subscriber)
    while try subscriber.receive(wait: .nonBlocking) != nil {}

    let sent = 1_000
    for number in 0..<sent {
      // PUB never blocks: past the mark, send succeeds and the message is dropped.
      #expect(try publisher.send(withUnsafeBytes(of: UInt32(number)) { Array($0) }))
    }
    var received: [UInt32] = []
    while let message = try subscriber.receive(wait: .nonBlocking) {
      if message.count == 4 {
        received.append(message.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
      }
    }
    #expect(!received.isEmpty)
    #expect(received.count < sent / 10)
    #expect(received == received.sorted())
    #expect(received.first == 0)
  }

  @Test("a message over the maximum size is refused and its sender disconnected")
  func maxMessageSize() throws {
    let router = try Socket(context, .router)
    try router.set(.maxMessageSize, 100)
    #expect(try router.get(.maxMessageSize) == 100)
    let monitor = try router.monitor([.accepted, .disconnected])
    let endpoint = try router.bindLoopback()

    let big = try Socket(context, .dealer)
    try big.connect(endpoint)
    try big.send([UInt8](repeating: 7, count: 1_000))
    #expect(try monitor.next(.disconnected, timeout: .seconds(5)) != nil)
    #expect(try router.receive(wait: .nonBlocking) == nil)

    let small = try Socket(context, .dealer)
    try small.connect(endpoint)
    try small.send([UInt8](repeating: 7, count: 100))
    let parts = try #require(try router.receiveParts(wait: .timeout(.seconds(5))))
    #expect(parts.last?.count == 100)
  }

  @Test("non-blocking and timed receives return nil when nothing arrives")
  func receiveTimeouts() throws {
    let pull = try Socket(context, .pull)
    try pull.bind(.inproc("receive-timeouts"))
    #expect(try pull.receive(wait: .nonBlocking) == nil)
    let clock = ContinuousClock()
    let start = clock.now
    #expect(try pull.receiveParts(wait: .timeout(.milliseconds(30))) == nil)
    #expect(clock.now - start >= .milliseconds(30))

    try pull.set(.receiveTimeout, .milliseconds(10))
    #expect(try pull.get(.receiveTimeout) == .milliseconds(10))
    #expect(throws: ZMQError(code: .wouldBlock, call: "zmq_msg_recv")) { try pull.receive() }
  }

  @Test("a non-blocking send to a full pipe returns false")
  func nonBlockingSendFull() throws {
    let push = try Socket(context, .push)
    try push.set(.sendHighWaterMark, 5)
    try push.bind(.inproc("send-full"))
    let pull = try Socket(context, .pull)
    try pull.set(.receiveHighWaterMark, 5)
    try pull.connect(.inproc("send-full"))
    var accepted = 0
    while try push.send([1], wait: .nonBlocking) {
      accepted += 1
      try #require(accepted < 1_000)
    }
    #expect(accepted >= 5)
    #expect(try !push.send([1], wait: .timeout(.milliseconds(5))))
    // Credit flows back to the sender in batches, so drain the receiver before sending again.
    var drained = 0
    while try pull.receive(wait: .nonBlocking) != nil { drained += 1 }
    #expect(drained == accepted)
    #expect(try push.send([1], wait: .timeout(.seconds(5))))
  }

  @Test("a Message is sent without copying and left empty")
  func zeroCopyMessage() throws {
    let push = try Socket(context, .push)
    try push.bind(.inproc("zero-copy"))
    let pull = try Socket(context, .pull)
    try pull.connect(.inproc("zero-copy"))
    let message = Message([UInt8](repeating: 9, count: 4_096))
    try push.send(message)
    #expect(message.count == 0)
    let received = Message()
    #expect(try pull.receive(into: received, wait: .timeout(.seconds(5))))
    #expect(received.count == 4_096)
    #expect(received.withUnsafeBytes { $0.allSatisfy { $0 == 9 } })
  }

  @Test("a Message made with a release action runs it once libzmq is done with its bytes")
  func releasedMessage() throws {
    let push = try Socket(context, .push)
    try push.bind(.inproc("released"))
    let pull = try Socket(context, .pull)
    try pull.connect(.inproc("released"))
    let releases = Releases()
    try push.send(
      Message([UInt8](repeating: 7, count: 100)) { releases.count.add(1, ordering: .relaxed) })
    // Queued, then held by the receiving message: not released yet.
    #expect(releases.value == 0)
    let received = Message()
    #expect(try pull.receive(into: received, wait: .timeout(.seconds(5))))
    #expect(received.bytes == [UInt8](repeating: 7, count: 100))
    #expect(releases.value == 0)
    // Received again into (nothing arrives), the message lets go of what it held.
    #expect(try !pull.receive(into: received, wait: .nonBlocking))
    #expect(releases.value == 1)
    // A message never sent is released as it goes away.
    var unsent: Message? = Message([1, 2, 3]) { releases.count.add(1, ordering: .relaxed) }
    #expect(unsent?.count == 3)
    unsent = nil
    #expect(releases.value == 2)
  }
}

/// How many times release actions ran.
private final class Releases: Sendable {
  let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }
}
