import TandemProtocol
import ZeroMQ

/// A CURVE key file: a named public key, with its secret key (a key pair, as `tandem keygen`
/// writes it, mode 0600) or with its grant (an entry of a leader's key store).
///
/// The format is UTF-8 text, one `field = value` per line, `#` starting a comment; keys are
/// 40 characters of Z85 (ZeroMQ RFC 32), as `zmq_curve_keypair` writes them:
///
/// ```text
/// # Tandem CURVE key
/// name = worker-1
/// public-key = rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7
/// role = write
/// tags = load.started, load.done
/// ```
///
/// A key pair file has `secret-key` (and no role); a key store entry has `role` (`read`,
/// `write` or `admin`) and, optionally, `tags`: the only action tags the key may dispatch.
public struct KeyFile: Sendable, Equatable {
  /// The key's name: 1 to 64 characters of letters, digits, `.`, `_` and `-`.
  public var name: String
  public var publicKey: CurveKey
  /// The secret key of a key pair file.
  public var secretKey: CurveKey?
  /// The role of a key store entry.
  public var role: KeyGrant.Role?
  /// The tag allow-list of a key store entry; `nil` allows every tag.
  public var tags: Set<String>?

  public init(
    name: String, publicKey: CurveKey, secretKey: CurveKey? = nil, role: KeyGrant.Role? = nil,
    tags: Set<String>? = nil
  ) {
    self.name = name
    self.publicKey = publicKey
    self.secretKey = secretKey
    self.role = role
    self.tags = tags
  }

  /// A new random key pair named `name`.
  public static func generate(name: String) throws -> KeyFile {
    let pair = try Curve.keyPair()
    return KeyFile(name: name, publicKey: pair.publicKey, secretKey: pair.secretKey)
  }

  /// Whether `name` is a valid key name.
  public static func isValidName(_ name: String) -> Bool {
    (1...64).contains(name.utf8.count)
      && name.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F || byte == 0x2D
      }
  }

  /// The grant of a key store entry (`nil` for a key pair file).
  public var grant: KeyGrant? {
    role.map { KeyGrant(name: name, role: $0, tags: tags) }
  }

  /// This file without its secret key: what to hand to a leader's operator.
  public var publicPart: KeyFile {
    KeyFile(name: name, publicKey: publicKey, role: role, tags: tags)
  }

  /// The file's text.
  public var text: String {
    var lines = [
      secretKey == nil
        ? "# Tandem CURVE public key"
        : "# Tandem CURVE key pair: keep this file secret (mode 0600)",
      "name = \(name)", "public-key = \(publicKey.z85)",
    ]
    if let secretKey { lines.append("secret-key = \(secretKey.z85)") }
    if let role { lines.append("role = \(role.rawValue)") }
    if let tags { lines.append("tags = \(tags.sorted().joined(separator: ", "))") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Reads the key file at `path`. A file with a secret key must have mode 0600 (or stricter):
  /// one that others may read is refused with ``KeyStoreError/secretKeyExposed(path:mode:)``.
  public static func read(_ path: String) throws(KeyStoreError) -> KeyFile {
    let (text, mode) = try KeyFileSystem.read(path)
    let file = try parse(text, path: path)
    if file.secretKey != nil, mode & 0o077 != 0 {
      throw .secretKeyExposed(path: path, mode: mode)
    }
    return file
  }

  /// Reads a key pair file (one with a secret key), as ``read(_:)`` does.
  public static func readKeyPair(_ path: String) throws(KeyStoreError) -> KeyFile {
    let file = try read(path)
    guard file.secretKey != nil else {
      throw .malformed(
        path: path, line: 0,
        reason: "no secret-key: this is a public key file; give the key pair file `tandem "
          + "keygen` wrote (NAME.secret)")
    }
    return file
  }

  /// Writes the file at `path`: mode 0600 with a secret key, else 0644. Refuses to replace a
  /// file unless `replacing`.
  public func write(to path: String, replacing: Bool = false) throws(KeyStoreError) {
    try KeyFileSystem.write(
      text, to: path, mode: secretKey == nil ? 0o644 : 0o600, replacing: replacing)
  }

  /// Parses a key file's text (`path` names it in errors).
  public static func parse(_ text: String, path: String) throws(KeyStoreError) -> KeyFile {
    var fields: [String: (value: String, line: Int)] = [:]
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = rawLine.trimmingSpaces
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw .malformed(path: path, line: index + 1, reason: "expected `field = value`")
      }
      let field = String(line[..<equals]).trimmingSpaces
      let value = String(line[line.index(after: equals)...]).trimmingSpaces
      guard ["name", "public-key", "secret-key", "role", "tags"].contains(field) else {
        throw .malformed(
          path: path, line: index + 1,
          reason: "unknown field '\(field)' (fields: name, public-key, secret-key, role, tags)")
      }
      guard fields[field] == nil else {
        throw .malformed(path: path, line: index + 1, reason: "'\(field)' is given twice")
      }
      fields[field] = (value, index + 1)
    }
    func key(_ field: String) throws(KeyStoreError) -> CurveKey? {
      guard let (value, line) = fields[field] else { return nil }
      guard let key = CurveKey(z85: value) else {
        throw .malformed(path: path, line: line, reason: "\(field) is not 40 characters of Z85")
      }
      return key
    }
    guard let (name, nameLine) = fields["name"] else {
      throw .malformed(path: path, line: 0, reason: "no `name = ...` line")
    }
    guard isValidName(name) else {
      throw .malformed(
        path: path, line: nameLine,
        reason: "the name '\(name)' is not 1 to 64 letters, digits, '.', '_' or '-'")
    }
    guard let publicKey = try key("public-key") else {
      throw .malformed(path: path, line: 0, reason: "no `public-key = ...` line")
    }
    let secretKey = try key("secret-key")
    if let secretKey, let derived = try? Curve.publicKey(for: secretKey), derived != publicKey {
      throw .malformed(
        path: path, line: fields["secret-key"]!.line,
        reason: "the secret key does not belong to the public key")
    }
    var role: KeyGrant.Role?
    if let (value, line) = fields["role"] {
      guard let parsed = KeyGrant.Role(rawValue: value) else {
        throw .malformed(
          path: path, line: line, reason: "role '\(value)' is not read, write or admin")
      }
      role = parsed
    }
    var tags: Set<String>?
    if let (value, _) = fields["tags"] {
      tags = Set(
        value.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty })
    }
    return KeyFile(name: name, publicKey: publicKey, secretKey: secretKey, role: role, tags: tags)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and carriage returns.
  var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }
}
