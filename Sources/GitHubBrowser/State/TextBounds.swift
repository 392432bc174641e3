import TandemSync

/// A kind of text the shared state takes from GitHub and shows as it is, with the most bytes
/// (UTF-8) the state keeps of one. Longer text is cut at the last whole character that fits
/// with "…" after it, so the page shows that it was cut.
///
/// The state is replicated to every process of the service and each change travels as a delta,
/// so text taken as GitHub sends it would grow every replica and every delta with it. A worker
/// bounds what it loads before sending it (``GitHubClient/perform(_:)``), and the reducer
/// bounds what arrives all the same. Names have their own bounds (``NameBound``), and the README
/// its own (``BrowserState/maximumReadmeBytes``).
public enum TextBound: CaseIterable, Sendable {
  /// A repository's description: 2 KiB. GitHub takes 350 characters (at most 1,400 bytes), and
  /// keeps longer ones written before it had that limit.
  case description
  /// The first line of a commit message, which the detail lists: 1 KiB. Git sets no limit;
  /// GitHub's own pages show about 70 characters of it.
  case commitTitle
  /// A person's name, as a commit records its author or a profile shows it: 256 bytes. GitHub
  /// takes 255 characters for a profile's name; git sets no limit on an author's.
  case personName
  /// The name of a repository's main language: 64 bytes; the longest GitHub (Linguist) knows
  /// have about 35.
  case language
  /// A time as GitHub's ISO 8601 text: 64 bytes; GitHub's have 20 (`2026-11-30T14:10:18Z`).
  case timestamp
  /// A failure's message, GitHub's or the client's own (which can quote a response): 1 KiB, as
  /// the leader keeps of a rejection's.
  case message

  /// The most bytes of UTF-8 the state keeps of such text, "…" included.
  public var maximumBytes: Int {
    switch self {
    case .description: 2 << 10
    case .commitTitle: 1 << 10
    case .personName: 256
    case .language: 64
    case .timestamp: 64
    case .message: 1 << 10
    }
  }
}

/// A kind of name the shared state takes from GitHub, with the most bytes (UTF-8) it keeps of
/// one. A name is never cut, as a cut name would name something else (a login or a repository
/// name builds the page's links, the state's keys and the requests for them): a response with
/// a name beyond its bound fails to load, saying so (``LoadFailure/Kind/server``). No bound is
/// below GitHub's own limit, so GitHub never sends such a name.
public enum NameBound: CaseIterable, Sendable {
  /// A user's or organization's login: 39 bytes (GitHub's limit). The leader's validation
  /// refuses a longer one in a route, a load or a bookmark.
  case login
  /// A repository's name: 100 bytes (GitHub's limit). The leader's validation refuses a longer
  /// one in a route, a load or a bookmark.
  case repositoryName
  /// A branch's name: 255 bytes, as GitHub refuses a ref of more (`refs/heads/` included).
  case branchName
  /// A commit's SHA: 64 bytes, the hex digits of a SHA-256 (GitHub's SHA-1 ones have 40).
  case sha

  /// The most bytes of UTF-8 a name of this kind has.
  public var maximumBytes: Int {
    switch self {
    case .login: 39
    case .repositoryName: 100
    case .branchName: 255
    case .sha: 64
    }
  }

  /// Throws ``BoundViolation`` saying what GitHub sent if `name` is longer than this kind of
  /// name can be.
  func check(_ name: String) throws(BoundViolation) {
    let bytes = name.utf8.count
    guard bytes > maximumBytes else { return }
    throw BoundViolation(
      message: "GitHub sent \(noun) of \(bytes) bytes, longer than one can be"
        + " (\(maximumBytes)): '\(name.shortened(toUTF8Bytes: maximumBytes))'")
  }

  private var noun: String {
    switch self {
    case .login: "a login"
    case .repositoryName: "a repository name"
    case .branchName: "a branch name"
    case .sha: "a commit SHA"
    }
  }
}

/// Data from GitHub that the state does not keep: a name beyond its ``NameBound``, or a page
/// with more than ``BrowserState/maximumPageEntries`` entries.
struct BoundViolation: Error {
  /// A sentence saying what GitHub sent.
  var message: String
}

extension String {
  /// This text, or if longer than `bound` allows, the whole characters that fit in it with
  /// "…" after them.
  func cut(to bound: TextBound) -> String {
    shortened(toUTF8Bytes: bound.maximumBytes)
  }
}
