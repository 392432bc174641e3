import Foundation

@testable import TandemProtocol
@testable import TandemSync

/// Key pairs and a key store in a temporary directory, removed with it: a leader's key, and
/// client keys added to the store with the roles a test gives.
final class KeyFixture: @unchecked Sendable {  // written once, while a test sets it up
  let directory: String
  let store: String
  let leader: KeyFile
  private(set) var keys: [String: KeyFile] = [:]

  init() throws {
    directory = NSTemporaryDirectory() + "tandem-keys-\(FollowerConfiguration.randomClientID())"
    store = directory + "/store"
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    leader = try KeyFile.generate(name: "leader")
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A new key pair named `name`, added to the store with `role` (and `tags`), unless
  /// `authorized` is false.
  @discardableResult
  func key(
    _ name: String, role: KeyGrant.Role = .write, tags: Set<String>? = nil,
    authorized: Bool = true
  ) throws -> KeyFile {
    let key = try KeyFile.generate(name: name)
    keys[name] = key
    if authorized { try KeyStore.add(key, role: role, tags: tags, to: store) }
    return key
  }

  /// The leader's security: its key pair and the store.
  var leaderSecurity: LeaderSecurity { LeaderSecurity(key: leader, keyStore: store) }

  /// A follower's security with the key named `name`, pinning the leader's key.
  func follower(_ name: String) -> FollowerSecurity {
    FollowerSecurity(key: keys[name]!, leaderKey: leader.publicKey)
  }
}
