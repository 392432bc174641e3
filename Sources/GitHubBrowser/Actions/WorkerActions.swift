import Tandem

/// A worker found out who its token signs in as; tag `github.identity.resolved`.
public struct IdentityResolved: BrowserActionConvertible, Sendable {
  /// The identity (never the token).
  public var identity: Identity

  /// The worker signs in as `identity`.
  public init(identity: Identity) {
    self.identity = identity
  }

  /// ``BrowserAction/identityResolved(_:)``.
  public var browserAction: BrowserAction { .identityResolved(identity) }
}

/// A worker claims a load, or renews its claim; tag `github.load.claim`.
/// See ``BrowserAction/claimLoad(id:workerID:now:expiresAt:)``.
public struct ClaimLoad: BrowserActionConvertible, Sendable {
  /// The load's number.
  public var id: Int
  /// The claiming worker.
  public var workerID: String
  /// The worker's clock when it claimed, in milliseconds since 1970.
  public var now: Int64
  /// When the claim lapses, in milliseconds since 1970.
  public var expiresAt: Int64

  /// A claim on load `id` by `workerID` from `now` until `expiresAt`.
  public init(id: Int, workerID: String, now: Int64, expiresAt: Int64) {
    self.id = id
    self.workerID = workerID
    self.now = now
    self.expiresAt = expiresAt
  }

  /// ``BrowserAction/claimLoad(id:workerID:now:expiresAt:)``.
  public var browserAction: BrowserAction {
    .claimLoad(id: id, workerID: workerID, now: now, expiresAt: expiresAt)
  }
}

/// A worker gives back a load it holds without performing it; tag `github.load.release`.
public struct ReleaseLoad: BrowserActionConvertible, Sendable {
  /// The load's number.
  public var id: Int
  /// The worker holding it.
  public var workerID: String

  /// `workerID` releases load `id`.
  public init(id: Int, workerID: String) {
    self.id = id
    self.workerID = workerID
  }

  /// ``BrowserAction/releaseLoad(id:workerID:)``.
  public var browserAction: BrowserAction { .releaseLoad(id: id, workerID: workerID) }
}

/// A worker reports a load's result; tag `github.load.complete`.
public struct CompleteLoad: BrowserActionConvertible, Sendable {
  /// The load's number.
  public var id: Int
  /// The worker holding it.
  public var workerID: String
  /// What the load produced, with GitHub's rate limit.
  public var result: LoadResult

  /// `workerID` completes load `id` with `result`.
  public init(id: Int, workerID: String, result: LoadResult) {
    self.id = id
    self.workerID = workerID
    self.result = result
  }

  /// ``BrowserAction/completeLoad(id:workerID:result:)``.
  public var browserAction: BrowserAction {
    .completeLoad(id: id, workerID: workerID, result: result)
  }
}
