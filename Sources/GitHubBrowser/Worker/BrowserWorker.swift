import Foundation
import Synchronization
import Tandem
import TandemSync

/// The process that performs the browser's effects: it watches its replica for requested
/// loads, claims each through the leader, performs it with a ``GitHubClient`` and dispatches
/// the result.
///
/// A claim is a ``ClaimLoad`` sent with ``TandemSync/Follower/send(_:)``; the worker waits until
/// its replica shows the action (read-your-writes) and performs the load only if the state then
/// shows the claim as its own. The leader applies claims in one order, so of two workers
/// claiming the same load only the first gets it. While a load runs the worker renews its claim
/// every third of the lease; a worker that dies stops renewing, its claim lapses, and another
/// worker's next claim takes the load over.
///
/// ```swift
/// var configuration = FollowerConfiguration(leader: endpoint)
/// configuration.schemaVersion = browserSchemaVersion
/// let follower = try await Follower<BrowserState>(
///   configuration: configuration, registry: browserRegistry)
/// let worker = BrowserWorker(
///   follower: follower, client: GitHubClient(configuration: .init(token: token)),
///   configuration: .init(workerID: "worker-1"))
/// await worker.run()   // until the task is cancelled
/// ```
///
/// Each load is performed with its account's token: the worker's own `client` for the
/// service's account (`""`), and for a user who signed in through a front end a client with the
/// token of that user's newest sign-in in the ``CredentialStore`` the front ends write. A load
/// of a user with no sign-in left fails with ``LoadFailure/Kind/signedOut``.
///
/// Rate limits are respected twice, per account: each account's client refuses requests itself
/// until a limit's retry time, and the state makes no load of an account claimable while its
/// ``BrowserState/rateLimits`` entry shows no requests left before the reset (a rate-limited
/// load also waits, unclaimable, until ``LoadRequest/notBefore``). Another account's loads go
/// on, and so do other owners' within an account: ``Configuration/concurrency`` and
/// ``Configuration/ownerConcurrency`` bound one account's and one owner's share of the loads
/// in flight, so one user's slow answers hold up nobody else's.
public final class BrowserWorker: Sendable {
  /// How a worker names itself and paces its claims.
  public struct Configuration: Sendable {
    /// The id its claims carry; unique among the service's workers.
    public var workerID: String
    /// How long a claim lasts unless renewed.
    public var lease: Duration
    /// The most loads of one account performed at once (there is no bound across accounts).
    public var concurrency: Int
    /// The most loads of one owner's data within one account performed at once.
    public var ownerConcurrency: Int
    /// How often the worker looks again without a state change (for lapsed claims and ended
    /// rate limits, which no delta announces).
    public var recheckInterval: Duration

    /// A configuration; every parameter has the default described on its property.
    public init(
      workerID: String, lease: Duration = .seconds(15), concurrency: Int = 4,
      ownerConcurrency: Int = 2, recheckInterval: Duration = .milliseconds(500)
    ) {
      precondition(!workerID.isEmpty, "BrowserWorker: empty worker id")
      precondition(concurrency > 0, "BrowserWorker: concurrency must be positive")
      precondition(ownerConcurrency > 0, "BrowserWorker: ownerConcurrency must be positive")
      self.workerID = workerID
      self.lease = lease
      self.concurrency = concurrency
      self.ownerConcurrency = ownerConcurrency
      self.recheckInterval = recheckInterval
    }
  }

  /// The replica the worker watches and sends through.
  public let follower: Follower<BrowserState>
  /// The GitHub client that performs the service's own loads (account `""`), and whose
  /// configuration, with a user's token, performs that user's.
  public let client: GitHubClient
  /// Where the front ends keep the tokens of users who signed in; `nil` when none sign in.
  public let credentials: CredentialStore?
  /// The configuration it was made with.
  public let configuration: Configuration
  private let log: TandemLogger
  /// The worker's metrics, for Prometheus: loads by outcome and their durations, and its
  /// follower's (see ``MetricsRegistry``).
  public let metrics = MetricsRegistry()
  private let loads = WorkerMetrics()
  private let inFlight = Mutex<[Int: LoadRequest]>([:])
  private let userClients = Mutex<[String: GitHubClient]>([:])
  private let performed = Mutex<[Int]>([])

  /// A worker on `follower` performing the service's loads with `client`, and signed-in users'
  /// with their tokens from `credentials`.
  public init(
    follower: Follower<BrowserState>, client: GitHubClient, credentials: CredentialStore? = nil,
    configuration: Configuration
  ) {
    self.follower = follower
    self.client = client
    self.credentials = credentials
    self.configuration = configuration
    self.log = TandemLogger(label: "worker[\(configuration.workerID)]")
    metrics.addCollector { [loads] in loads.families() }
    metrics.addCollector { [follower] in await follower.metrics.families() }
  }

  /// The ids of the loads this worker performed (claimed and sent to GitHub), in order.
  public var performedLoads: [Int] { performed.withLock { $0 } }

  /// Resolves the identity, then claims and performs loads until the calling task is cancelled.
  public func run() async {
    let (wake, waker) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let watcher = Task { [follower] in
      for await _ in follower.store.values(\.loads) { waker.yield() }
    }
    let ticker = Task { [configuration] in
      while !Task.isCancelled {
        try? await Task.sleep(for: configuration.recheckInterval)
        waker.yield()
      }
    }
    let identity = Task { await self.reportIdentity() }
    defer {
      watcher.cancel()
      ticker.cancel()
      identity.cancel()
    }
    await withTaskGroup(of: Void.self) { group in
      for await _ in wake {
        if Task.isCancelled { break }
        for load in claimCandidates() {
          group.addTask {
            await self.attempt(load)
            self.inFlight.withLock { _ = $0.removeValue(forKey: load.id) }
            waker.yield()
          }
        }
      }
      group.cancelAll()
    }
  }

  /// The claimable loads this worker takes on now (marked in flight), within each account's
  /// and each owner's share (see ``LoadScheduling``).
  private func claimCandidates() -> [LoadRequest] {
    let now = Self.milliseconds()
    guard let state = follower.store.state else { return [] }
    let claimable = state.claimableLoads(at: now)
    return inFlight.withLock { inFlight in
      let chosen = LoadScheduling.next(
        from: claimable, running: Array(inFlight.values),
        perAccount: configuration.concurrency, perOwner: configuration.ownerConcurrency)
      for load in chosen { inFlight[load.id] = load }
      return chosen
    }
  }

  /// The client for `account`'s loads: the worker's own for `""`, else one with the token of
  /// the account's newest sign-in (kept while the token stays the same, for its ETag cache and
  /// its rate limit), or `nil` when the account has no sign-in left.
  private func client(for account: String) -> GitHubClient? {
    guard !account.isEmpty else { return client }
    guard let token = credentials?.token(forAccount: account) else {
      userClients.withLock { _ = $0.removeValue(forKey: account) }
      return nil
    }
    return userClients.withLock { clients in
      if let known = clients[account], known.configuration.token == token { return known }
      var configuration = client.configuration
      configuration.token = token
      let made = GitHubClient(configuration: configuration)
      clients[account] = made
      return made
    }
  }

  /// What a load of an account without a sign-in gets.
  static func signedOutResult(_ account: String) -> LoadResult {
    LoadResult(
      .failed(
        LoadFailure(
          kind: .signedOut,
          message: "\(account) has signed out of every browser, so no token can load this;"
            + " sign in again")))
  }

  /// Claims `load`; performs it and reports the result if the claim is this worker's.
  private func attempt(_ load: LoadRequest) async {
    let me = configuration.workerID
    let now = Self.milliseconds()
    do {
      _ = try await follower.send(
        ClaimLoad(id: load.id, workerID: me, now: now, expiresAt: now + leaseMilliseconds)
      ).applied()
    } catch {
      log.error("claim of load \(load.id) failed: \(error)")
      return
    }
    guard follower.store.state.load(load.id)?.isClaimed(by: me, at: Self.milliseconds()) == true
    else { return }
    performed.withLock { $0.append(load.id) }
    log.info("performing load \(load.id): \(load.target)")
    let renewal = Task { await self.renew(load.id) }
    let started = ContinuousClock.now
    let result: LoadResult?
    if let client = client(for: load.account) {
      result = await client.perform(load.target)
    } else {
      result = Self.signedOutResult(load.account)
    }
    loads.performed(
      result.map { if case .failed = $0.outcome { "failed" } else { "succeeded" } }
        ?? "released", in: .now - started)
    renewal.cancel()
    do {
      if let result {
        if case .failed(let failure) = result.outcome {
          log.info("load \(load.id) failed: \(failure.kind.rawValue): \(failure.message)")
        }
        _ = try await follower.send(CompleteLoad(id: load.id, workerID: me, result: result))
          .applied()
      } else {
        _ = try follower.send(ReleaseLoad(id: load.id, workerID: me))
      }
    } catch {
      log.error("cannot report load \(load.id): \(error)")
    }
  }

  /// Renews the claim on `id` every third of the lease until cancelled.
  private func renew(_ id: Int) async {
    while true {
      do { try await Task.sleep(for: configuration.lease / 3) } catch { return }
      let now = Self.milliseconds()
      do {
        _ = try follower.send(
          ClaimLoad(
            id: id, workerID: configuration.workerID, now: now, expiresAt: now + leaseMilliseconds))
      } catch {
        log.error("cannot renew the claim on load \(id): \(error)")
      }
    }
  }

  /// Tells the state who the client signs in as, a refused token included. Asks GitHub again
  /// only while it cannot be reached, and gives up on any other failure, which asking again
  /// would not change.
  private func reportIdentity() async {
    while !Task.isCancelled {
      let identity: Identity
      do {
        identity = try await client.resolveIdentity()
      } catch .cancelled {
        return
      } catch {
        guard let delay = Self.identityRetryDelay(after: error) else {
          log.error("cannot resolve the identity, not trying again: \(error)")
          return
        }
        log.error("cannot resolve the identity, trying again in \(delay): \(error)")
        try? await Task.sleep(for: delay)
        continue
      }
      do {
        if follower.store.state.identity != identity {
          _ = try await follower.send(IdentityResolved(identity: identity)).applied()
        }
        return
      } catch {
        log.error("cannot report the identity: \(error)")
      }
      try? await Task.sleep(for: .seconds(5))
    }
  }

  /// How long to wait before asking for the identity again after `error`: until a rate
  /// limit's retry time (at least a second, at most an hour, after which the client says
  /// whether the limit still holds), or five seconds after a server error, a timeout or a
  /// network failure; `nil` for the rest.
  private static func identityRetryDelay(after error: GitHubError) -> Duration? {
    if case .rateLimited(let rejection) = error {
      let now = Int64(Date().timeIntervalSince1970)
      return .seconds(min(max(rejection.retryAt, now + 1), now + 3600) - now)
    }
    return error.isRetryable ? .seconds(5) : nil
  }

  private var leaseMilliseconds: Int64 {
    let (seconds, attoseconds) = configuration.lease.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }

  /// Now, in milliseconds since 1970.
  static func milliseconds() -> Int64 {
    Int64(Date().timeIntervalSince1970 * 1000)
  }
}
