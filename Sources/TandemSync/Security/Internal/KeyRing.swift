import Synchronization
import TandemProtocol
import ZeroMQ

/// The key store as of its last reload, shared by the leader's ZAP handler (which looks keys up
/// by public key) and its loop (which looks them up by name, at every request).
final class KeyRing: Sendable {
  let path: String
  private let store: Mutex<KeyStore>

  init(path: String) throws(KeyStoreError) {
    self.path = path
    store = Mutex(try KeyStore.load(path))
  }

  /// How many keys the store holds.
  var count: Int { store.withLock { $0.entries.count } }

  func grant(for key: CurveKey) -> KeyGrant? { store.withLock { $0.grant(for: key) } }

  func grant(named name: String) -> KeyGrant? { store.withLock { $0.grant(named: name) } }

  /// Reads the store again; returns the names of the keys it no longer holds, or holds with
  /// another public key (their connections must be cut). A store that does not read is
  /// refused and the one before stays in force.
  func reload() throws(KeyStoreError) -> (count: Int, removed: [String]) {
    let fresh = try KeyStore.load(path)
    return store.withLock { current in
      let removed = current.entries.filter { old in
        fresh.grant(for: old.publicKey)?.name != old.name
      }.map(\.name)
      current = fresh
      return (fresh.entries.count, removed)
    }
  }

  /// The ZAP handler's answer (RFC 27) to a connection's handshake: `200` with the key's name
  /// as user id for a CURVE key in the store, `400` for any other.
  func authenticate(_ request: ZAPRequest) -> ZAPReply {
    guard let key = request.curveKey else {
      return ZAPReply(
        requestID: request.requestID, status: .authenticationFailure,
        statusText: "this leader accepts CURVE connections only, not \(request.mechanism)")
    }
    guard let grant = grant(for: key) else {
      return ZAPReply(
        requestID: request.requestID, status: .authenticationFailure,
        statusText: "key \(key.z85) is not in the leader's key store")
    }
    return ZAPReply(
      requestID: request.requestID, status: .success, statusText: "OK", userID: grant.name)
  }
}
