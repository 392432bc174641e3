extension Route.Screen {
  /// The first path segments the front end keeps for itself, which no screen's path starts
  /// with: `api` (the JSON API and the event stream) and `assets` (the page's script and
  /// style). GitHub reserves both as logins, so no owner is lost.
  public static let reservedSegments: Set<String> = ["api", "assets"]

  /// The screen a page path names, or `nil` when it names none.
  ///
  /// | path | screen |
  /// |---|---|
  /// | `/` | the signed-in user's repositories |
  /// | `/bookmarks` | the bookmarks |
  /// | `/{owner}` | the owner's repositories |
  /// | `/{owner}/{name}` | the repository |
  ///
  /// A trailing slash is allowed. Segments are percent-decoded first (as the server hands them
  /// over); an owner must be a login GitHub could have (letters, digits and hyphens, at
  /// most ``NameBound/login`` bytes) and a name a repository name (letters, digits, `.`, `-`
  /// and `_`, at most ``NameBound/repositoryName`` bytes, not `.` or `..`).
  ///
  /// ```swift
  /// Route.Screen(path: "/ada/cinder-server")  // .repository(owner: "ada", name: "cinder-server")
  /// Route.Screen(path: "/api/view")           // nil
  /// ```
  public init?(path: String) {
    guard path.hasPrefix("/") else { return nil }
    var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    if segments.last == "", segments.count > 1 || path == "/" { segments.removeLast() }
    guard !segments.contains("") else { return nil }
    switch segments.count {
    case 0:
      self = .repositories(.signedInUser)
    case 1 where segments.first == "bookmarks":
      self = .bookmarks
    case 1, 2:
      let owner = String(segments[segments.startIndex])
      guard !Self.reservedSegments.contains(owner.lowercased()), Self.isLogin(owner) else {
        return nil
      }
      guard segments.count == 2 else {
        self = .repositories(.owner(owner))
        return
      }
      let name = String(segments[segments.startIndex + 1])
      guard Self.isRepositoryName(name) else { return nil }
      self = .repository(owner: owner, name: name)
    default:
      return nil
    }
  }

  /// The page path of the screen: what ``init(path:)`` reads back as the same screen.
  public var path: String {
    switch self {
    case .repositories(.signedInUser): return "/"
    case .repositories(.owner(let owner)): return "/" + owner
    case .repository(let owner, let name): return "/" + owner + "/" + name
    case .bookmarks: return "/bookmarks"
    }
  }

  /// Whether `text` could be a GitHub login: ASCII letters, digits and hyphens, not starting
  /// with a hyphen (older accounts may have two in a row, or one at the end).
  static func isLogin(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count <= NameBound.login.maximumBytes,
      bytes.first != UInt8(ascii: "-")
    else { return false }
    return bytes.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") }
  }

  /// Whether `text` could be a GitHub repository name: ASCII letters, digits, `.`, `-` and
  /// `_`, neither `.` nor `..`.
  static func isRepositoryName(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count <= NameBound.repositoryName.maximumBytes,
      text != ".", text != ".."
    else { return false }
    return bytes.allSatisfy {
      $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        || $0 == UInt8(ascii: "_")
    }
  }
}

extension UInt8 {
  fileprivate var isASCIIAlphanumeric: Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
  }
}
