import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the tokens of the users who signed in live: one file a sign-in, in a directory of the
/// service's state that only the service's own system user can read.
///
/// A sign-in is named by an opaque id of 256 random bits, which the browser keeps in an
/// `HttpOnly`, `SameSite=Lax` cookie; the file `ID.json` (mode `0600`, in a directory of mode
/// `0700`) holds the user's login, name and token. Tokens never enter the shared state, the
/// journal, a log line or a page: a web front end writes the file when a user signs in and
/// removes it at sign-out, and a worker reads the newest sign-in of an account when it
/// performs that account's loads. Front ends and workers therefore share the directory (run
/// them as one system user on one machine, or mount it for each), and a restart of either
/// keeps every sign-in.
///
/// ```swift
/// let store = try CredentialStore(directory: URL(fileURLWithPath: "/var/lib/github-browser/sign-ins"))
/// let id = try store.save(login: "ada", name: "Ada Lovelace", token: token)
/// store.signIn(id)?.login          // "ada"
/// store.token(forAccount: "ada")   // the token, for a worker
/// ```
public final class CredentialStore: Sendable {
  /// One sign-in: who signed in, and when. Its token is read only through
  /// ``CredentialStore/token(forAccount:)``, and its description leaves the token out.
  public struct SignIn: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The user's GitHub login, as GitHub spells it.
    public var login: String
    /// The user's name, if GitHub has one.
    public var name: String?
    /// When the user signed in, in seconds since 1970.
    public var signedInAt: Int64
    var token: String

    /// The account the sign-in's loads are made for: the login in lower case.
    public var account: String { login.lowercased() }

    /// The login and the time, without the token.
    public var description: String { "SignIn(login: \(login), signedInAt: \(signedInAt))" }
  }

  /// The directory holding the sign-ins.
  public let directory: URL

  /// A store in `directory`, created (with its parents) if missing, and made readable by the
  /// process's own user only.
  public init(directory: URL) throws(CredentialStoreError) {
    self.directory = directory
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw CredentialStoreError(
        "cannot create the sign-in directory \(directory.path): \(error.localizedDescription);"
          + " give the service a writable state directory")
    }
    guard chmod(directory.path, 0o700) == 0 else {
      throw CredentialStoreError(
        "cannot make \(directory.path) private (chmod 0700): \(String(cString: strerror(errno)))")
    }
  }

  /// Records that `login` signed in with `token` and returns the new sign-in's id, for the
  /// browser's cookie. The file is written under a temporary name with mode `0600` and renamed
  /// into place, so a reader never sees half of it.
  public func save(login: String, name: String?, token: String) throws(CredentialStoreError)
    -> String
  {
    let id = Self.newID()
    let signIn = SignIn(
      login: login, name: name, signedInAt: Int64(Date().timeIntervalSince1970), token: token)
    let bytes: Data
    do { bytes = try JSONEncoder().encode(signIn) } catch {
      throw CredentialStoreError("cannot encode a sign-in: \(error)")
    }
    let final = path(of: id)
    let temporary = final + ".new"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CredentialStoreError(
        "cannot write \(temporary): \(String(cString: strerror(errno))); check the sign-in"
          + " directory's owner and free space")
    }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == bytes.count, synced, rename(temporary, final) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CredentialStoreError("cannot write the sign-in \(final): \(reason)")
    }
    return id
  }

  /// The sign-in named `id`, or `nil` if there is none (signed out, or an id this store never
  /// made).
  public func signIn(_ id: String) -> SignIn? {
    guard Self.isID(id), let data = FileManager.default.contents(atPath: path(of: id)) else {
      return nil
    }
    return try? JSONDecoder().decode(SignIn.self, from: data)
  }

  /// Forgets the sign-in named `id` (sign-out); its token is no longer used for anything.
  public func remove(_ id: String) {
    guard Self.isID(id) else { return }
    unlink(path(of: id))
  }

  /// The token of `account`'s newest sign-in, or `nil` when the account has none left.
  public func token(forAccount account: String) -> String? {
    newestSignIn(of: account)?.token
  }

  /// `account`'s newest sign-in.
  func newestSignIn(of account: String) -> SignIn? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    var newest: SignIn?
    for name in names where name.hasSuffix(".json") {
      guard let signIn = signIn(String(name.dropLast(5))), signIn.account == account else {
        continue
      }
      if newest.map({ $0.signedInAt <= signIn.signedInAt }) ?? true { newest = signIn }
    }
    return newest
  }

  private func path(of id: String) -> String {
    directory.appendingPathComponent(id + ".json").path
  }

  /// 256 random bits in hex, from the system's secure generator.
  static func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let word = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - word.count) + word
    }.joined()
  }

  /// Whether `id` has the shape ``newID()`` makes (so it can never name another file).
  static func isID(_ id: String) -> Bool {
    id.utf8.count == 64 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }
}

/// A sign-in the ``CredentialStore`` cannot keep, with what to do about it.
public struct CredentialStoreError: Error, CustomStringConvertible {
  /// What went wrong and what to do.
  public var message: String

  init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
