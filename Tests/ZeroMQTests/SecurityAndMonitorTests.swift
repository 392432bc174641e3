import Testing
import ZeroMQ

@Suite("CURVE and monitor events", .timeLimit(.minutes(1)))
struct SecurityAndMonitorTests {
  let context = Context()

  /// A CURVE server ROUTER bound to loopback, with a monitor on its handshake events.
  private func curveServer(secretKey: CurveKey) throws -> (Socket, Monitor, Endpoint) {
    let server = try Socket(context, .router)
    try server.set(.curveServer, true)
    try server.set(.curveSecretKey, secretKey)
    let monitor = try server.monitor([.handshakeSucceeded, .handshakeFailed])
    let endpoint = try server.bindLoopback()
    return (server, monitor, endpoint)
  }

  private func curveClient(serverKey: CurveKey, endpoint: Endpoint) throws -> Socket {
    let keys = try Curve.keyPair()
    let client = try Socket(context, .dealer)
    try client.set(.linger, .zero)
    try client.set(.curveServerKey, serverKey)
    try client.set(.curvePublicKey, keys.publicKey)
    try client.set(.curveSecretKey, keys.secretKey)
    try client.connect(endpoint)
    return client
  }

  @Test("a CURVE client with the right server key completes the handshake")
  func curveRightKey() throws {
    try #require(Curve.isAvailable)
    let serverKeys = try Curve.keyPair()
    let (server, monitor, endpoint) = try curveServer(secretKey: serverKeys.secretKey)
    let client = try curveClient(serverKey: serverKeys.publicKey, endpoint: endpoint)

    let event = try #require(try monitor.next(.all, timeout: .seconds(5)))
    #expect(event.kind == .handshakeSucceeded)
    try client.send("secret")
    let parts = try #require(try server.receiveParts(wait: .timeout(.seconds(5))))
    #expect(parts.last == bytes("secret"))
  }

  @Test("a CURVE client with a wrong server key fails the handshake (monitor event)")
  func curveWrongKey() throws {
    try #require(Curve.isAvailable)
    let serverKeys = try Curve.keyPair()
    let (server, monitor, endpoint) = try curveServer(secretKey: serverKeys.secretKey)
    let impostor = try Curve.keyPair()
    let client = try curveClient(serverKey: impostor.publicKey, endpoint: endpoint)

    try withExtendedLifetime(client) {
      let event = try #require(try monitor.next(.all, timeout: .seconds(5)))
      #expect(MonitorEvent.Kind.handshakeFailed.contains(event.kind))
      #expect(event.kind == .handshakeFailedProtocol)
      #expect(try server.receive(wait: .nonBlocking) == nil)
    }
  }

  @Test("key pairs are 32 bytes, distinct, and the public key derives from the secret")
  func keyPair() throws {
    try #require(Curve.isAvailable)
    let first = try Curve.keyPair()
    let second = try Curve.keyPair()
    #expect(first.publicKey != second.publicKey)
    #expect(first.publicKey.bytes.count == 32)
    #expect(first.publicKey.z85.count == 40)
    #expect(try Curve.publicKey(for: first.secretKey) == first.publicKey)
    #expect(CurveKey(z85: first.secretKey.z85) == first.secretKey)
  }

  @Test("Z85 encodes RFC 32's test vector and round-trips")
  func z85() {
    let vector: [UInt8] = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]
    #expect(Z85.encode(vector) == "HelloWorld")
    #expect(Z85.decode("HelloWorld") == vector)
    #expect(Z85.encode([1, 2, 3]) == nil)
    #expect(Z85.decode("Hello") != nil)
    #expect(Z85.decode("Hell") == nil)
    #expect(Z85.decode("Hell~") == nil)
    let bytes = (0..<64).map { UInt8($0 * 3 % 256) }
    #expect(Z85.decode(Z85.encode(bytes)!) == bytes)
  }

  @Test("the monitor reports connected, then disconnected when the peer goes away")
  func monitorConnectDisconnect() throws {
    let router = try Socket(context, .router)
    let endpoint = try router.bindLoopback()
    let dealer = try Socket(context, .dealer)
    let monitor = try dealer.monitor([.connected, .disconnected])
    try dealer.connect(endpoint)

    let connected = try #require(try monitor.next(.connected, timeout: .seconds(5)))
    #expect(connected.endpoint == endpoint.description)
    router.close()
    let disconnected = try #require(try monitor.next(.disconnected, timeout: .seconds(5)))
    #expect(disconnected.endpoint == endpoint.description)
  }

  @Test("the monitor reports a bound socket accepting a connection")
  func monitorAccepted() throws {
    let router = try Socket(context, .router)
    let monitor = try router.monitor([.listening, .accepted])
    let endpoint = try router.bindLoopback()
    let listening = try #require(try monitor.next(.listening, timeout: .seconds(5)))
    #expect(listening.endpoint == endpoint.description)
    let dealer = try Socket(context, .dealer)
    try dealer.connect(endpoint)
    #expect(try monitor.next(.accepted, timeout: .seconds(5))?.kind == .accepted)
  }
}
