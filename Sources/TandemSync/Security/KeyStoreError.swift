/// Why a key file or the key store could not be read or written. Each names the file and what
/// to do; none advises deleting a file.
public enum KeyStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file or directory could not be read.
  case cannotRead(path: String, reason: String)
  /// The file or directory could not be written.
  case cannotWrite(path: String, reason: String)
  /// A secret key file that others than its owner may read or write.
  case secretKeyExposed(path: String, mode: UInt32)
  /// A line of a key file is not what the format allows.
  case malformed(path: String, line: Int, reason: String)
  /// Two files of the key store have the same name or the same public key.
  case duplicate(path: String, other: String, what: String)
  /// No key of that name is in the store.
  case unknownKey(name: String, store: String)

  public var description: String {
    switch self {
    case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
    case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
    case .secretKeyExposed(let path, let mode):
      "the secret key file \(path) has mode \(String(mode, radix: 8)): others may read it, so it "
        + "is refused; make it private with `chmod 600 \(path)`"
    case .malformed(let path, let line, let reason): "\(path), line \(line): \(reason)"
    case .duplicate(let path, let other, let what):
      "\(path) has the same \(what) as \(other): a key store holds each key and each name once; "
        + "rename or revoke one of them"
    case .unknownKey(let name, let store): "no key named '\(name)' in the key store \(store)"
    }
  }
}
