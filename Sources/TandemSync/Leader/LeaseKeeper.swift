import Synchronization
import TandemJournal
import TandemProtocol
import ZeroMQ

/// Keeps a standby leader's lease: runs the leadership rules (``TandemProtocol``'s
/// `Leadership`) against a ``LeaseStore`` on a thread of its own, since the store's calls
/// block on the database, and tells the leader process what to do through ``Actions``.
///
/// While standby it watches the lease and keeps the redirect target up to date; when the lease
/// is free or ran out it takes it, has the process recover from the shared journal
/// (``Actions/recover``), and renews it every third of its length. At each read, acquisition
/// and renewal it also announces its process to the other leaders sharing the journal
/// (``TandemJournal/LeaseStore/announce(id:control:updates:role:forgettingAfter:)``) and lists
/// them, so that ``lease()`` names the standbys. ``mayAcknowledge()`` is
/// what the leader's ``LeaderConfiguration/mayAcknowledge`` asks; when the lease cannot be
/// renewed in time the keeper stops the process acknowledging and has it close its sockets.
///
/// ```swift
/// let keeper = try LeaseKeeper(
///   store: lease, leaderID: id, control: "tcp://a:5600", updates: "tcp://a:5601",
///   leaseLength: .milliseconds(1500), actions: actions)
/// keeper.start()
/// ```
public final class LeaseKeeper: Sendable {
  /// What the leader process does when the lease rules say so; each runs on the keeper's
  /// thread, and may block.
  public struct Actions: Sendable {
    /// Open the shared journal for appends fenced by the epoch given and recover the state and
    /// the ledger from it; throw when that fails (the keeper gives the lease up).
    public var recover: @Sendable (_ fencingEpoch: UInt64) throws -> Void
    /// Serve what was recovered: bind the leader's sockets. Acknowledgements may go out from
    /// now on (``LeaseKeeper/mayAcknowledge()`` says so as this is called); throw when that
    /// fails (the keeper hands the lease over).
    public var serve: @Sendable () throws -> Void
    /// Stop acknowledging at once (the leader's gate already says no), for the reason given.
    public var stopAcknowledging: @Sendable (_ reason: String) -> Void
    /// Commit and answer the batch in flight, then return (a clean hand-over).
    public var drain: @Sendable () -> Void
    /// Stop serving (close the leader's sockets and journal session) and answer followers
    /// with `REDIRECT` again.
    public var closeSockets: @Sendable () -> Void
    /// The lease holder followers are to be redirected to (nil: none is known).
    public var redirect: @Sendable (LeaseRecord?) -> Void
    /// A line for the log.
    public var log: @Sendable (_ error: Bool, _ message: String) -> Void

    public init(
      recover: @escaping @Sendable (UInt64) throws -> Void,
      serve: @escaping @Sendable () throws -> Void = {},
      stopAcknowledging: @escaping @Sendable (String) -> Void,
      drain: @escaping @Sendable () -> Void, closeSockets: @escaping @Sendable () -> Void,
      redirect: @escaping @Sendable (LeaseRecord?) -> Void,
      log: @escaping @Sendable (Bool, String) -> Void
    ) {
      self.recover = recover
      self.serve = serve
      self.stopAcknowledging = stopAcknowledging
      self.drain = drain
      self.closeSockets = closeSockets
      self.redirect = redirect
      self.log = log
    }
  }

  /// The lease as this keeper sees it, for statistics (`tandem stats`).
  public struct Status: Sendable, Equatable {
    /// `standby`, `acquiring`, `recovering`, `active`, `steppingDown` or `demoting`.
    public var role: String
    /// The lease last read or answered.
    public var lease: LeaseRecord?
    /// How long this leader may still acknowledge, when it holds the lease.
    public var timeLeft: Duration?
  }

  /// For how many lease lengths a leader that stopped announcing itself is still listed
  /// among the standbys (and its row kept): a standby announces itself at every read of the
  /// lease, at least every sixth of its length.
  static let standbyListingLeases = 3

  /// The other leaders sharing the journal as last listed, kept for ``lease()``: `STATS` is
  /// answered on the leader's I/O thread, which must never wait for the database.
  private struct Roster {
    var others: [LeaderPresence] = []
    /// When they were listed; nil before the first listing.
    var listedAt: ContinuousClock.Instant?
    /// Whether the last announcement failed (logged once until one goes through).
    var failing = false
  }

  private let store: any LeaseStore
  private let control: String
  private let updates: String
  private let actions: Actions
  private let loop: IOLoop
  private let leadership: Mutex<Leadership>
  private let roster = Mutex(Roster())

  /// A keeper for `leaderID` (unique per process), advertising `control` and `updates` to
  /// followers while it holds the lease.
  public init(
    store: any LeaseStore, leaderID: String, control: String, updates: String,
    leaseLength: Duration, actions: Actions
  ) throws(LeaderError) {
    self.store = store
    self.control = control
    self.updates = updates
    self.actions = actions
    leadership = Mutex(
      Leadership(configuration: .init(leaderID: leaderID, leaseLength: leaseLength)))
    do {
      loop = try IOLoop(name: "tandem-lease")
    } catch {
      throw .cannotStart(error)
    }
  }

  /// Starts watching the lease, and ticking.
  public func start() {
    let interval = leadership.withLock { $0.configuration.safetyMargin } / 4
    // Weakly: a keeper released without stop() lets its loop go (the loop's deinit stops it).
    loop.execute { [weak self] scope in
      _ = scope.schedule(every: interval) { [weak self] in self?.step { $0.tick(now: .now) } }
      self?.step { $0.start(now: .now) }
    }
  }

  /// Whether the leader may acknowledge now (what ``LeaderConfiguration/mayAcknowledge``
  /// asks); callable from any thread.
  public func mayAcknowledge() -> Bool {
    leadership.withLock { $0.mayAcknowledge(now: .now) }
  }

  /// Asks the active leader to hand over cleanly (what ``LeaderConfiguration/stepDown`` calls
  /// for an operator's `STEP-DOWN`): returns the lease handed over (this leader's id and
  /// fencing epoch) when the hand-over began now or was under way already, nil when this
  /// leader does not serve.
  ///
  /// It never blocks, and may be called from any thread, the leader's I/O thread included: the
  /// hand-over (``Actions/drain``, the release, ``Actions/closeSockets``) runs afterwards on
  /// the keeper's thread.
  @discardableResult
  public func stepDown() -> LeaseRecord? {
    let (lease, effects) = leadership.withLock { leadership in
      let effects = leadership.stepDown(now: .now)
      return (leadership.leaseHandedOver, effects)
    }
    if !effects.isEmpty {
      loop.execute { [weak self] _ in self?.run(effects) }
    }
    return lease
  }

  /// A commit could not be decided (what ``LeaderConfiguration/commitUndecided`` calls): the
  /// journal fenced it off, or its outcome is unknown; the rules demote the leader (and give
  /// the lease up after an unknown outcome).
  public func commitUndecided(fenced: Bool, reason: String) {
    loop.execute { [weak self] _ in
      self?.step { fenced ? $0.fenced(now: .now) : $0.commitOutcomeUnknown(reason, now: .now) }
    }
  }

  /// The lease as of now.
  public func status() -> Status {
    leadership.withLock { leadership in
      let now = ContinuousClock.now
      return Status(
        role: "\(leadership.phase)", lease: leadership.lease,
        timeLeft: leadership.timeLeft(now: now))
    }
  }

  /// The lease as `STATS` reports it (what ``LeaderConfiguration/leaseStatus`` asks), with the
  /// standbys: the other leaders sharing the journal, besides the holder, as the keeper last
  /// listed them (it never waits for the database: callable on the leader's I/O thread).
  public func lease() -> LeaderStatistics.Lease? {
    let status = status()
    guard let lease = status.lease else { return nil }
    let left = status.timeLeft.map { max(0, Int($0 / .milliseconds(1))) } ?? 0
    return LeaderStatistics.Lease(
      role: status.role, holder: lease.holder, control: lease.control,
      fencingEpoch: lease.fencingEpoch, millisecondsLeft: left,
      standbys: standbys(besides: lease.holder))
  }

  /// The other leaders last listed, but `holder`, each with the time since it announced itself
  /// as of now.
  private func standbys(besides holder: String) -> [LeaderStatistics.Lease.Standby] {
    let (others, listedAt) = roster.withLock { ($0.others, $0.listedAt) }
    guard let listedAt else { return [] }
    let sinceListed = ContinuousClock.now - listedAt
    return others.filter { $0.id != holder }.map { other in
      LeaderStatistics.Lease.Standby(
        id: other.id, control: other.control, role: other.role,
        lastSeenMillisecondsAgo: max(0, Int((other.sinceSeen + sinceListed) / .milliseconds(1))))
    }
  }

  /// Announces this process to the other leaders sharing the journal (with its role as of now)
  /// and lists them, after each read, acquisition and renewal of the lease; a failure is
  /// logged once, until an announcement goes through again, and leaves the last list as it was.
  private func announce() {
    let (leaderID, role, length) = leadership.withLock {
      ($0.configuration.leaderID, "\($0.phase)", $0.configuration.leaseLength)
    }
    let window = length * Self.standbyListingLeases
    do throws(JournalError) {
      try store.announce(
        id: leaderID, control: control, updates: updates, role: role, forgettingAfter: window)
      let others = try store.leaders(except: leaderID, seenWithin: window)
      roster.withLock { $0 = Roster(others: others, listedAt: .now) }
    } catch {
      let first = roster.withLock { roster in
        defer { roster.failing = true }
        return !roster.failing
      }
      if first {
        actions.log(
          true,
          "could not announce this leader to the others sharing the journal (tandem stats "
            + "lists the standbys from there); trying again at the next read or renewal: \(error)")
      }
    }
  }

  /// Stops the keeper's thread (after the call in progress); the lease is left to run out.
  public func stop() async {
    await loop.shutdown()
  }

  /// The holder to send followers to: the other leader the rules name (see `Leadership`'s
  /// `redirect(now:)`), unless it advertises this process's own control endpoint, which is
  /// then a former process at this address (gone, since this one holds the address).
  private func redirectTarget() -> LeaseRecord? {
    guard let target = leadership.withLock({ $0.redirect(now: .now) }), target.control != control
    else { return nil }
    return target
  }

  /// Feeds one input to the rules and carries out their effects, with the inputs those add.
  private func step(_ input: (inout Leadership) -> [LeadershipEffect]) {
    run(leadership.withLock { input(&$0) })
  }

  /// Carries `effects` out in order, with the effects of the inputs they report.
  private func run(_ effects: [LeadershipEffect]) {
    var pending = effects
    while !pending.isEmpty {
      let effect = pending.removeFirst()
      pending += perform(effect)
    }
  }

  /// Carries one effect out; returns the effects of the input it reports.
  private func perform(_ effect: LeadershipEffect) -> [LeadershipEffect] {
    func feed(_ input: (inout Leadership) -> [LeadershipEffect]) -> [LeadershipEffect] {
      leadership.withLock { input(&$0) }
    }
    switch effect {
    case .readLease:
      do throws(JournalError) {
        let record = try store.current()
        let effects = feed { $0.leaseRead(record, now: .now) }
        actions.redirect(redirectTarget())
        announce()
        return effects
      } catch {
        return feed { $0.leaseReadFailed("\(error)", now: .now) }
      }
    case .watchLease(let timeout):
      try? store.waitForChange(timeout: timeout)
      // As a job of its own: a stop or a hand-over queued meanwhile runs first, and a loop
      // shutting down drops it, ending the watch.
      loop.execute { [weak self] _ in self?.step { $0.watchEnded(now: .now) } }
      return []
    case .acquire(let length):
      let leaderID = leadership.withLock { $0.configuration.leaderID }
      do throws(JournalError) {
        let record = try store.acquire(
          holder: leaderID, control: control, updates: updates, length: length)
        let effects = feed { $0.acquired(record, now: .now) }
        announce()
        return effects
      } catch {
        return feed { $0.acquireFailed("\(error)", now: .now) }
      }
    case .renew(let fencingEpoch, let length):
      let leaderID = leadership.withLock { $0.configuration.leaderID }
      do throws(JournalError) {
        let record = try store.renew(holder: leaderID, fencingEpoch: fencingEpoch, length: length)
        let effects = feed { $0.renewed(record, now: .now) }
        announce()
        return effects
      } catch {
        return feed { $0.renewFailed("\(error)", now: .now) }
      }
    case .recover(let fencingEpoch):
      do {
        try actions.recover(fencingEpoch)
        return feed { $0.recovered(now: .now) }
      } catch {
        return feed { $0.recoveryFailed("\(error)", now: .now) }
      }
    case .serve:
      actions.redirect(nil)
      do {
        try actions.serve()
      } catch {
        actions.log(true, "cannot serve (\(error)); handing the lease over")
        return feed { $0.stepDown(now: .now) }
      }
      return []
    case .stopAcknowledging(let reason):
      actions.stopAcknowledging(reason)
      return []
    case .drain:
      actions.drain()
      return feed { $0.drained(now: .now) }
    case .closeSockets:
      actions.closeSockets()
      return feed { $0.demoted(now: .now) }
    case .release(let fencingEpoch):
      let leaderID = leadership.withLock { $0.configuration.leaderID }
      do throws(JournalError) {
        try store.release(holder: leaderID, fencingEpoch: fencingEpoch)
      } catch {
        actions.log(true, "cannot give the lease up (it runs out by itself): \(error)")
      }
      return []
    case .log(let level, let message):
      actions.log(level == .error, message)
      return []
    }
  }
}
