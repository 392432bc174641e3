import ZeroMQ

/// A leader's CURVE keys: its own key pair, and the key store of the client keys it accepts.
///
/// With it, both leader sockets are CURVE servers, a ZAP handler checks every client key
/// against the store (``KeyStore``), and each request is authorized by the key's role. Without
/// it (``LeaderConfiguration/security`` `nil`) the leader runs in plain mode, and says so in its
/// first log line.
///
/// ```swift
/// configuration.security = try LeaderSecurity(keyFile: "/etc/tandem/leader.secret",
///                                             keyStore: "/etc/tandem/clients")
/// ```
public struct LeaderSecurity: Sendable {
  /// The leader's key pair: its public key is what followers pin (`--leader-key`).
  public var key: KeyFile
  /// The directory of the key store.
  public var keyStore: String

  /// Reads the leader's key pair from `keyFile` (mode 0600, see ``KeyFile/readKeyPair(_:)``)
  /// and checks that the store at `keyStore` reads.
  public init(keyFile: String, keyStore: String) throws(KeyStoreError) {
    self.key = try KeyFile.readKeyPair(keyFile)
    self.keyStore = keyStore
    _ = try KeyStore.load(keyStore)
  }

  /// A leader with the key pair `key` accepting the clients of the store at `keyStore`.
  public init(key: KeyFile, keyStore: String) {
    self.key = key
    self.keyStore = keyStore
  }

  /// The leader's public key as followers give it (`--leader-key`).
  public var publicKey: CurveKey { key.publicKey }
}
