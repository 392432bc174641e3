import Tandem
import TandemProtocol
import TandemSync

/// Every action of the GitHub browser under its stable tag; leader, workers and front ends
/// must use this registry (it is part of the schema fingerprint).
///
/// | tag | type | sent by |
/// |---|---|---|
/// | `github.bookmark.add` | ``AddBookmark`` | web front ends |
/// | `github.bookmark.remove` | ``RemoveBookmark`` | web front ends |
/// | `github.navigate` | ``Navigate`` | web front ends |
/// | `github.session.end` | ``EndSession`` | web front ends |
/// | `github.load.request` | ``RequestLoad`` | web front ends |
/// | `github.identity.resolved` | ``IdentityResolved`` | workers |
/// | `github.load.claim` | ``ClaimLoad`` | workers |
/// | `github.load.release` | ``ReleaseLoad`` | workers |
/// | `github.load.complete` | ``CompleteLoad`` | workers |
public let browserRegistry = ActionRegistry()
  .registering(AddBookmark.self, tag: "github.bookmark.add")
  .registering(RemoveBookmark.self, tag: "github.bookmark.remove")
  .registering(Navigate.self, tag: "github.navigate")
  .registering(EndSession.self, tag: "github.session.end")
  .registering(RequestLoad.self, tag: "github.load.request")
  .registering(IdentityResolved.self, tag: "github.identity.resolved")
  .registering(ClaimLoad.self, tag: "github.load.claim")
  .registering(ReleaseLoad.self, tag: "github.load.release")
  .registering(CompleteLoad.self, tag: "github.load.complete")

/// The schema version of the browser's leader and followers
/// (`LeaderConfiguration.schemaVersion`, `FollowerConfiguration.schemaVersion`). The schema
/// fingerprint covers the shapes of the actions in ``browserRegistry`` but only the name of
/// ``BrowserState``, so this changes whenever the state's encoding does, and processes built
/// before and after such a change refuse each other instead of failing to decode the state.
///
/// Version 2: ``BrowserState/sessions`` holds ``BrowserSession`` values,
/// ``BrowserState/repositoryLists`` and ``BrowserState/repositories`` hold ``CacheEntry``
/// values, and ``LoadFailure/Kind`` has ``LoadFailure/Kind/queueFull``. Version 3: each
/// ``LoadRequest`` records its ``LoadRequest/session``, ``LoadFailure/Kind`` has
/// ``LoadFailure/Kind/sessionQueueFull``, and ``RepositoryDetail`` has
/// ``RepositoryDetail/fullReadmeBytes``.
/// Version 4: sessions, loads, bookmarks, rate limits and cached data belong to an account
/// (``BrowserSession/account``, ``LoadRequest/account``, ``BrowserState/bookmarks``,
/// ``BrowserState/rateLimits``, ``BrowserState/cacheKey(_:account:)``).
public let browserSchemaVersion = "4"

/// The tags a web front end forwards from browsers; the others belong to workers.
public let browserUserTags: Set<String> = [
  "github.bookmark.add", "github.bookmark.remove", "github.navigate", "github.session.end",
  "github.load.request",
]

/// The leader's validation of forwarded actions (`LeaderConfiguration.validate`) against its
/// current `state`: refuses names GitHub would never accept (in routes, selections, loads and
/// bookmarks), a new bookmark beyond ``BrowserState/maximumBookmarks``, empty or oversized
/// session ids (of navigations, load requests and session ends), accounts that are not a
/// login in lower case, page numbers outside
/// 1...``BrowserState/maximumListPages``, claims without a worker or a future expiry, load
/// results whose times are not seconds since 1970 before the year 10000, and an identity whose
/// login is longer than ``NameBound/login``, with a message saying what is wrong.
///
/// ```swift
/// var configuration = LeaderConfiguration()
/// configuration.schemaVersion = browserSchemaVersion
/// configuration.validate = { action, _ in validateBrowserAction(action, in: store.state) }
/// ```
public func validateBrowserAction(_ action: any Action, in state: BrowserState) -> Rejection? {
  let problem: String?
  switch action {
  case let bookmark as AddBookmark:
    problem =
      accountProblem(bookmark.account) ?? nameProblem(owner: bookmark.owner, name: bookmark.name)
      ?? bookmarkLimitProblem(
        Bookmark(owner: bookmark.owner, name: bookmark.name), of: bookmark.account, in: state)
  case let bookmark as RemoveBookmark:
    problem =
      accountProblem(bookmark.account) ?? nameProblem(owner: bookmark.owner, name: bookmark.name)
  case let navigate as Navigate:
    problem =
      accountProblem(navigate.account) ?? sessionProblem(navigate.session)
      ?? screenProblem(navigate.route.screen)
      ?? navigate.route.selection.flatMap(selectionProblem)
  case let end as EndSession:
    problem = sessionProblem(end.session)
  case let request as RequestLoad:
    problem =
      accountProblem(request.account) ?? sessionProblem(request.session)
      ?? targetProblem(request.target)
  case let claim as ClaimLoad:
    problem =
      claim.workerID.isEmpty || claim.expiresAt <= claim.now
      ? "a claim needs a worker id and an expiry after its time" : nil
  case let complete as CompleteLoad:
    problem = timeProblem(in: complete.result)
  case let resolved as IdentityResolved:
    problem = identityProblem(resolved.identity)
  default:
    problem = nil
  }
  return problem.map { Rejection(code: .refused, message: $0) }
}

private func bookmarkLimitProblem(
  _ bookmark: Bookmark, of account: String, in state: BrowserState
) -> String? {
  guard state.bookmarks(of: account).count >= BrowserState.maximumBookmarks,
    !state.hasBookmark(bookmark, account: account)
  else { return nil }
  return "the service keeps at most \(BrowserState.maximumBookmarks) bookmarks a user: remove one"
    + " first"
}

/// An account is `""` (the service's own token) or a GitHub login in lower case.
private func accountProblem(_ account: String) -> String? {
  guard !account.isEmpty else { return nil }
  if account != account.lowercased() { return "an account is a login in lower case" }
  return loginProblem(account)
}

private func sessionProblem(_ session: String) -> String? {
  (1...128).contains(session.utf8.count) ? nil : "a session id has 1 to 128 bytes"
}

private func screenProblem(_ screen: Route.Screen) -> String? {
  switch screen {
  case .repositories(.owner(let owner)): return loginProblem(owner)
  case .repositories(.signedInUser), .bookmarks: return nil
  case .repository(let owner, let name): return nameProblem(owner: owner, name: name)
  }
}

private func selectionProblem(_ selection: String) -> String? {
  let parts = selection.split(separator: "/", omittingEmptySubsequences: false)
  guard parts.count == 2 else { return "a selection is owner/name, not '\(selection.prefix(200))'" }
  return nameProblem(owner: String(parts[0]), name: String(parts[1]))
}

private func targetProblem(_ target: LoadTarget) -> String? {
  switch target {
  case .repositories(let source, let page):
    guard (1...BrowserState.maximumListPages).contains(page) else {
      return "a page number is in 1...\(BrowserState.maximumListPages): the browser loads at most"
        + " the first \(BrowserState.maximumListPages) pages of a list"
    }
    if case .owner(let owner) = source { return loginProblem(owner) }
    return nil
  case .repository(let owner, let name):
    return nameProblem(owner: owner, name: name)
  }
}

/// The times a result carries (from GitHub's headers) are seconds since 1970, before the year
/// 10000.
private func timeProblem(in result: LoadResult) -> String? {
  var times = [result.rateLimit?.resetAt]
  if case .failed(let failure) = result.outcome { times.append(failure.retryAt) }
  let plausible = 0...253_402_300_799 as ClosedRange<Int64>
  guard times.allSatisfy({ $0.map(plausible.contains) ?? true }) else {
    return "a time in a load's result is in seconds since 1970, before the year 10000"
  }
  return nil
}

private func nameProblem(owner: String, name: String) -> String? {
  if let problem = loginProblem(owner) { return problem }
  let allowed = name.unicodeScalars.allSatisfy { scalar in
    scalar.isASCII
      && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        || "-_.".unicodeScalars.contains(scalar))
  }
  let bound = NameBound.repositoryName.maximumBytes
  guard (1...bound).contains(name.count), allowed, name != ".", name != ".." else {
    return "'\(name)' is not a repository name (1 to \(bound) letters, digits, '-', '_' or '.')"
  }
  return nil
}

/// GitHub's logins are letters, digits and '-'; an Enterprise Managed User's login ends in
/// '_' and the enterprise's short code (`mona_octo`), so '_' is allowed too.
private func loginProblem(_ login: String) -> String? {
  let allowed = login.unicodeScalars.allSatisfy { scalar in
    scalar.isASCII
      && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        || "-_".unicodeScalars.contains(scalar))
  }
  let bound = NameBound.login.maximumBytes
  guard (1...bound).contains(login.count), allowed else {
    return "'\(login)' is not a GitHub login (1 to \(bound) letters, digits, '-' or '_')"
  }
  return nil
}

/// A login longer than ``NameBound/login`` (the identity's other text is cut as the state
/// keeps it).
private func identityProblem(_ identity: Identity) -> String? {
  do {
    _ = try identity.bounded()
    return nil
  } catch {
    return error.message
  }
}
