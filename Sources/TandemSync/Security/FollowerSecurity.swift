import ZeroMQ

/// A follower's (or an operator tool's) CURVE keys: its own key pair, and the leader's public
/// key, which it pins: a leader without the matching secret key cannot complete the handshake.
public struct FollowerSecurity: Sendable, Equatable {
  /// The follower's key pair.
  public var key: KeyFile
  /// The leader's public key.
  public var leaderKey: CurveKey

  public init(key: KeyFile, leaderKey: CurveKey) {
    self.key = key
    self.leaderKey = leaderKey
  }

  /// Reads the key pair from `keyFile` and the leader's key from `leaderKey`: 40 characters of
  /// Z85, or the path of the leader's public key file.
  public init(keyFile: String, leaderKey: String) throws(KeyStoreError) {
    self.key = try KeyFile.readKeyPair(keyFile)
    if let key = CurveKey(z85: leaderKey) {
      self.leaderKey = key
    } else {
      self.leaderKey = try KeyFile.read(leaderKey).publicKey
    }
  }

  /// Makes `socket` a CURVE client of the leader (before it connects).
  package func apply(to socket: Socket) throws(ZMQError) {
    guard let secretKey = key.secretKey else {
      preconditionFailure("FollowerSecurity needs a key pair with its secret key")
    }
    try socket.set(.curveServerKey, leaderKey)
    try socket.set(.curvePublicKey, key.publicKey)
    try socket.set(.curveSecretKey, secretKey)
  }
}
