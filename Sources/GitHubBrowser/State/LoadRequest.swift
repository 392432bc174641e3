/// Something to fetch from GitHub, which a worker performs.
public enum LoadTarget: Codable, Hashable, Sendable {
  /// One page of a source's repositories.
  case repositories(RepositorySource, page: Int)
  /// A repository's detail: metadata, README, branches and recent commits.
  case repository(owner: String, name: String)

  /// The target with its login and name in lower case: GitHub's are case-insensitive, so every
  /// spelling of one list page or repository is one load.
  var normalized: LoadTarget {
    switch self {
    case .repositories(.owner(let login), let page):
      .repositories(.owner(login.lowercased()), page: page)
    case .repositories(.signedInUser, _): self
    case .repository(let owner, let name):
      .repository(owner: owner.lowercased(), name: name.lowercased())
    }
  }

  /// The ``BrowserState/repositories`` key for a detail target (`owner/name`, lower case).
  static func detailKey(owner: String, name: String) -> String {
    "\(owner)/\(name)".lowercased()
  }
}

/// A worker's claim on a load: it alone performs it until `expiresAt`.
public struct Claim: Codable, Equatable, Sendable {
  /// The claiming worker.
  public var workerID: String
  /// When the claim lapses, in milliseconds since 1970 (the claiming worker's clock).
  public var expiresAt: Int64

  /// A claim.
  public init(workerID: String, expiresAt: Int64) {
    self.workerID = workerID
    self.expiresAt = expiresAt
  }
}

/// A requested load, waiting for a worker or being performed by one.
public struct LoadRequest: Codable, Equatable, Sendable {
  /// The number the leader gave it: loads are numbered 1, 2, 3... in the order requested.
  public var id: Int
  /// What to fetch.
  public var target: LoadTarget
  /// The session that requested it, whose share of the queue
  /// (``BrowserState/maximumPendingLoadsPerSession``) it counts in while pending.
  public var session: String
  /// The account whose token performs it, and whose data it fills in: a GitHub login in lower
  /// case, or `""` for the service's own token.
  public var account: String
  /// The worker performing it, if claimed.
  public var claim: Claim?
  /// How many claims it has had (a takeover after an expiry counts again).
  public var attempts = 0
  /// Not to be claimed before this time (milliseconds since 1970): set after a rate limit.
  public var notBefore: Int64?

  /// A new, unclaimed request by `session`, for `account`.
  public init(id: Int, target: LoadTarget, session: String, account: String = "") {
    self.id = id
    self.target = target
    self.session = session
    self.account = account
  }

  /// Whether a worker may claim it at `now` (ms since 1970): unclaimed or lapsed, and not
  /// held back by a rate limit.
  public func isClaimable(at now: Int64) -> Bool {
    if let notBefore, now < notBefore { return false }
    guard let claim else { return true }
    return claim.expiresAt <= now
  }

  /// Whether `workerID` holds an unexpired claim at `now`.
  public func isClaimed(by workerID: String, at now: Int64) -> Bool {
    guard let claim else { return false }
    return claim.workerID == workerID && now < claim.expiresAt
  }
}
