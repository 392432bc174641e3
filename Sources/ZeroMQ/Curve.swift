import CZeroMQ

/// A 32-byte CURVE key (public or secret), printable as 40 Z85 characters.
public struct CurveKey: Hashable, Sendable, CustomStringConvertible {
  /// The key's 32 bytes.
  public let bytes: [UInt8]

  /// A key from its 32 bytes; `nil` for any other length.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 32 else { return nil }
    self.bytes = bytes
  }

  /// A key from its 40-character Z85 text; `nil` when the text is not a Z85 key.
  public init?(z85 text: String) {
    guard text.utf8.count == 40, let bytes = Z85.decode(text) else { return nil }
    self.bytes = bytes
  }

  /// The key as 40 Z85 characters.
  public var z85: String { Z85.encode(bytes)! }

  /// The Z85 text (printing a secret key prints the secret).
  public var description: String { z85 }

  /// All zero bytes: a placeholder, never a usable key.
  public static let zero = CurveKey(bytes: [UInt8](repeating: 0, count: 32))!
}

/// CURVE (CurveZMQ) security: encrypted and authenticated connections.
///
/// The server holds a long-term key pair and sets ``SocketOption/curveServer``; each client
/// has its own key pair and sets the server's public key:
///
/// ```swift
/// let server = try Curve.keyPair()
/// try router.set(.curveServer, true)
/// try router.set(.curveSecretKey, server.secretKey)
///
/// let client = try Curve.keyPair()
/// try dealer.set(.curveServerKey, server.publicKey)
/// try dealer.set(.curvePublicKey, client.publicKey)
/// try dealer.set(.curveSecretKey, client.secretKey)
/// ```
///
/// A client with the wrong server key never completes its handshake; the server's
/// ``Monitor`` reports ``MonitorEvent/Kind/handshakeFailedProtocol``.
public enum Curve {
  /// Whether this libzmq was built with CURVE support (`zmq_has("curve")`).
  public static var isAvailable: Bool { Context.has("curve") }

  /// A fresh random key pair (`zmq_curve_keypair`).
  public static func keyPair() throws(ZMQError) -> (publicKey: CurveKey, secretKey: CurveKey) {
    var publicText = [CChar](repeating: 0, count: 41)
    var secretText = [CChar](repeating: 0, count: 41)
    _ = try zmqCall("zmq_curve_keypair") { zmq_curve_keypair(&publicText, &secretText) }
    return (key(publicText), key(secretText))
  }

  /// The public key that belongs to `secretKey` (`zmq_curve_public`).
  public static func publicKey(for secretKey: CurveKey) throws(ZMQError) -> CurveKey {
    var publicText = [CChar](repeating: 0, count: 41)
    _ = try zmqCall("zmq_curve_public") { zmq_curve_public(&publicText, secretKey.z85) }
    return key(publicText)
  }

  private static func key(_ text: [CChar]) -> CurveKey {
    let string = String(decoding: text.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let key = CurveKey(z85: string) else { fatalError("libzmq returned a malformed key") }
    return key
  }
}
