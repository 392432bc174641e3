import TandemProtocol
import ZeroMQ

/// The client keys a leader accepts: a directory of ``KeyFile``s, one `NAME.key` per key, each
/// with a name, a role and, optionally, a tag allow-list.
///
/// ```sh
/// tandem keygen --name worker-1 --out keys/         # keys/worker-1.key and .secret (0600)
/// tandem keys add --store store/ --role write --tags load.started,load.done keys/worker-1.key
/// tandem keys revoke --store store/ worker-1        # moved to store/revoked/
/// ```
///
/// The leader reads the store at start and again on `SIGHUP` (``Leader/reloadKeys()``). Files
/// not ending in `.key` (such as the `revoked` directory) are ignored; an entry that does not
/// parse, holds a secret key, has no role, or repeats another's name or public key makes the
/// whole store refused, naming the file, so that a mistake never silently locks a key out or
/// lets one in.
public struct KeyStore: Sendable, Equatable {
  /// The directory.
  public var path: String
  /// The entries, by name.
  public private(set) var entries: [KeyFile]
  private var byKey: [CurveKey: KeyGrant]
  private var byName: [String: KeyGrant]

  /// An empty store at `path`, as before anything was added.
  public init(path: String, entries: [KeyFile] = []) {
    self.path = path
    self.entries = entries.sorted { $0.name < $1.name }
    byKey = [:]
    byName = [:]
    for entry in entries {
      guard let grant = entry.grant else { continue }
      byKey[entry.publicKey] = grant
      byName[entry.name] = grant
    }
  }

  /// Reads the store in the directory at `path`.
  public static func load(_ path: String) throws(KeyStoreError) -> KeyStore {
    var entries: [KeyFile] = []
    var files: [String: String] = [:]
    for name in try KeyFileSystem.list(path) where name.hasSuffix(".key") {
      let file = "\(path)/\(name)"
      let entry = try KeyFile.read(file)
      guard entry.secretKey == nil else {
        throw .malformed(
          path: file, line: 0,
          reason: "it holds a secret key: a key store holds public keys only (add the key with "
            + "`tandem keys add`, which copies its public part)")
      }
      guard entry.role != nil else {
        throw .malformed(
          path: file, line: 0, reason: "no `role = read|write|admin` line")
      }
      if let other = files["name " + entry.name] {
        throw .duplicate(path: file, other: other, what: "name")
      }
      if let other = files["key " + entry.publicKey.z85] {
        throw .duplicate(path: file, other: other, what: "public key")
      }
      files["name " + entry.name] = file
      files["key " + entry.publicKey.z85] = file
      entries.append(entry)
    }
    return KeyStore(path: path, entries: entries)
  }

  /// What the key `key` may do, or `nil` when the store does not hold it.
  public func grant(for key: CurveKey) -> KeyGrant? { byKey[key] }

  /// What the key named `name` may do, or `nil` when the store does not hold it.
  public func grant(named name: String) -> KeyGrant? { byName[name] }

  /// Adds the public part of `key` to the store at `path` as `NAME.key` with `role` and `tags`
  /// (making the directory if needed); refuses a name or a public key the store already holds.
  /// Returns the entry written.
  @discardableResult
  public static func add(
    _ key: KeyFile, role: KeyGrant.Role, tags: Set<String>? = nil, to path: String
  ) throws(KeyStoreError) -> KeyFile {
    try KeyFileSystem.makeDirectory(path)
    let store = try load(path)
    let file = "\(path)/\(key.name).key"
    if store.grant(named: key.name) != nil || KeyFileSystem.exists(file) {
      throw .duplicate(path: key.name, other: file, what: "name")
    }
    if let holder = store.entries.first(where: { $0.publicKey == key.publicKey }) {
      throw .duplicate(path: key.name, other: "\(path)/\(holder.name).key", what: "public key")
    }
    var entry = key.publicPart
    entry.role = role
    entry.tags = tags
    try entry.write(to: file)
    return entry
  }

  /// Makes the directory at `path` (mode 0755) unless it exists.
  public static func createDirectory(_ path: String) throws(KeyStoreError) {
    try KeyFileSystem.makeDirectory(path)
  }

  /// Revokes the key named `name` in the store at `path`: its file moves to `revoked/` in the
  /// store (kept for the record, and ignored by the leader). A running leader drops the key when
  /// it reloads the store (`SIGHUP`, or `tandem keys reload`).
  public static func revoke(name: String, in path: String) throws(KeyStoreError) {
    let file = "\(path)/\(name).key"
    guard KeyFileSystem.exists(file) else { throw .unknownKey(name: name, store: path) }
    let revoked = "\(path)/revoked"
    try KeyFileSystem.makeDirectory(revoked)
    var destination = "\(revoked)/\(name).key"
    var suffix = 1
    while KeyFileSystem.exists(destination) {
      suffix += 1
      destination = "\(revoked)/\(name).\(suffix).key"
    }
    try KeyFileSystem.move(file, to: destination)
  }
}
