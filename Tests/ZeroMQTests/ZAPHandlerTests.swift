import Synchronization
import Testing
import ZeroMQ

@Suite("ZAP handler (RFC 27)", .timeLimit(.minutes(1)))
struct ZAPHandlerTests {
  @Test("a key the handler accepts gets through with its user id; another is refused")
  func acceptsAndRefuses() async throws {
    try #require(Curve.isAvailable)
    let context = Context()
    let server = try Curve.keyPair()
    let allowed = try Curve.keyPair()
    let refused = try Curve.keyPair()
    let requests = RequestLog()
    let handler = try await ZAPHandler(context: context) { request in
      requests.add(request)
      guard request.curveKey == allowed.publicKey else {
        return ZAPReply(
          requestID: request.requestID, status: .authenticationFailure, statusText: "no")
      }
      return ZAPReply(
        requestID: request.requestID, status: .success, statusText: "OK", userID: "alice")
    }
    let router = try Socket(context, .router)
    try router.set(.linger, .zero)
    try router.set(.curveServer, true)
    try router.set(.curveSecretKey, server.secretKey)
    try router.set(.zapDomain, "test")
    let endpoint = try router.bindLoopback()

    func client(_ keys: (publicKey: CurveKey, secretKey: CurveKey)) throws -> (Socket, Monitor) {
      let dealer = try Socket(context, .dealer)
      try dealer.set(.linger, .zero)
      try dealer.set(.curveServerKey, server.publicKey)
      try dealer.set(.curvePublicKey, keys.publicKey)
      try dealer.set(.curveSecretKey, keys.secretKey)
      let monitor = try dealer.monitor([.handshakeSucceeded, .handshakeFailed])
      try dealer.connect(endpoint)
      return (dealer, monitor)
    }

    let (good, goodMonitor) = try client(allowed)
    try good.send("hello")
    let message = try #require(try router.receiveMessages(wait: .timeout(.seconds(5))))
    #expect(message.last?.string == "hello")
    #expect(message.last?.userID == "alice")
    #expect(try goodMonitor.next(.all, timeout: .seconds(5))?.kind == .handshakeSucceeded)

    let (bad, badMonitor) = try client(refused)
    try bad.send("let me in")
    let event = try #require(try badMonitor.next(.handshakeFailed, timeout: .seconds(5)))
    #expect(event.kind == .handshakeFailedAuth)
    #expect(event.value == 400)
    #expect(try router.receive(wait: .timeout(.milliseconds(100))) == nil)

    let first = try #require(requests.all.first)
    #expect(first.mechanism == "CURVE")
    #expect(first.domain == "test")
    #expect(first.frames.count == 7)
    #expect(ZAPRequest(frames: first.frames) == first)
    withExtendedLifetime((good, bad)) {}
    router.close()
    await handler.stop()
  }

  @Test("only a version 1.0 request parses; a reply has RFC 27's six frames")
  func frames() {
    #expect(ZAPRequest(frames: [Array("2.0".utf8), [1], [], [], [], Array("NULL".utf8)]) == nil)
    let reply = ZAPReply(requestID: [7], status: .success, statusText: "OK", userID: "bob")
    #expect(reply.frames.count == 6)
    #expect(reply.frames[2] == Array("200".utf8))
    #expect(reply.frames[4] == Array("bob".utf8))
  }
}

/// The requests a handler saw, from its thread.
final class RequestLog: Sendable {
  private let requests = Mutex<[ZAPRequest]>([])
  func add(_ request: ZAPRequest) { requests.withLock { $0.append(request) } }
  var all: [ZAPRequest] { requests.withLock { $0 } }
}
