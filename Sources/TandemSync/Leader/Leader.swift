import StatePatch
import Tandem
import TandemJournal
import TandemProtocol
import ZeroMQ

/// The process that owns the authoritative state: it applies every action, its own and its
/// followers', in one total order, and publishes the resulting state deltas.
///
/// Wrap a ``Tandem/Store`` whose state is `Codable`; dispatch to it as usual from any thread.
/// The leader numbers each applied action (the sequence), turns its change into an RFC 6902
/// patch of the state's canonical JSON (one ``Delta`` per action, or per batch of actions applied
/// together: ``LeaderConfiguration/deltaGrouping``), and publishes it to every ``Follower``;
/// followers' actions arrive on its control socket, are decoded through the
/// ``Tandem/ActionRegistry`` and applied exactly once.
///
/// ```swift
/// let store = Store<Counter>(reducer: counterReducer, state: Counter())
/// let leader = try await Leader(
///   store: store, registry: registry,
///   configuration: LeaderConfiguration(control: "tcp://*:5600", updates: "tcp://*:5601"))
/// store.dispatch(Increment())   // published to every follower
/// await leader.stop()
/// ```
///
/// Create the leader before anything dispatches to the store from other threads: actions applied
/// before it exists are part of its initial state, not deltas.
///
/// ``stop()`` stops the leader and returns once its I/O thread has ended. Releasing the last
/// reference to a running leader stops it the same way, without waiting, from any thread (its
/// own I/O thread included: a subscriber notified of a follower's action may release it). Its
/// journal closes shortly after, so call ``stop()`` before opening the journal again.
public final class Leader<State: Codable & Sendable>: Sendable {
  /// The authoritative store.
  public let store: Store<State>
  /// The bound control endpoint (what followers are given), with the real port.
  public let controlEndpoint: String
  /// The updates endpoint followers are told in `WELCOME`: the bound one, with the real port,
  /// or ``LeaderConfiguration/advertisedUpdates`` when that is set (which then names the port
  /// itself: bind the updates socket to a fixed port when advertising another address).
  public let updatesEndpoint: String
  /// The leader's epoch.
  public let epoch: Epoch
  /// The schema fingerprint of the leader's build: a follower whose fingerprint differs is
  /// admitted only if its ``schema`` is compatible (see the SchemaEvolution article of
  /// TandemProtocol).
  public let fingerprint: String
  /// The leader's state and action schemas, which `WELCOME` carries.
  public let schema: ApplicationSchema

  /// The leader's metrics, for Prometheus (see ``MetricsRegistry``): its sequence and epoch,
  /// actions, deltas, drops, followers and their lag, journal commit latency.
  public let metrics = MetricsRegistry()

  let loop: IOLoop
  let engine: LoopBound<LeaderEngine<State>>
  private let history: LeaderHistory<State>
  /// The ZAP handler checking client keys, with CURVE keys.
  private let zap: ZAPHandler?

  /// Recovers the leader's history from its journal (if it has one), binds its sockets and starts
  /// publishing the store's changes.
  ///
  /// With a journal that holds history, the store's state is replaced by the recovered one
  /// before anything is published.
  ///
  /// - Throws: a ``LeaderError``: ``LeaderError/journal(_:)`` when the journal cannot be
  ///   opened (held by another leader, damaged, from an incompatible version: its message says
  ///   what to do), ``LeaderError/unreplayableJournal(path:sequence:reason:)`` when its history
  ///   does not replay, ``LeaderError/invalidEndpoint(_:)`` or
  ///   ``LeaderError/cannotBind(endpoint:cause:)`` for an endpoint.
  public convenience init(
    store: Store<State>, registry: ActionRegistry,
    configuration: LeaderConfiguration = LeaderConfiguration()
  ) async throws(LeaderError) {
    try await self.init(
      store: store, registry: registry, configuration: configuration, recovered: nil)
  }

  /// A leader that starts from `recovered` (see ``recover(store:configuration:)``): its
  /// journal already open and read, so that binding is all that is left; nil recovers first.
  init(
    store: Store<State>, registry: ActionRegistry, configuration: LeaderConfiguration,
    recovered: LeaderStart<State>?
  ) async throws(LeaderError) {
    let fingerprint = SchemaFingerprint.of(
      State.self, registry: registry, version: configuration.schemaVersion)
    // A malformed endpoint is a usage error, said before anything is logged.
    for text in [configuration.control, configuration.updates] where Endpoint(parsing: text) == nil
    {
      throw .invalidEndpoint(text)
    }
    let keyRing: KeyRing?
    do throws(KeyStoreError) {
      keyRing = try Self.announceSecurity(of: configuration)
    } catch {
      throw .keys(error)
    }
    let schema = ApplicationSchema(
      State.self, registry: registry, version: configuration.schemaVersion)
    let start: LeaderStart<State>
    if let recovered {
      start = recovered
    } else {
      start = try Self.recover(store: store, configuration: configuration)
    }
    if start.recovered { store.replaceState(start.state) }
    let history = LeaderHistory(
      epoch: start.epoch, sequence: start.sequence, state: start.state, ledger: start.ledger)
    let loop: IOLoop
    do {
      loop = try IOLoop(name: "tandem-leader")
    } catch {
      throw .cannotStart(error)
    }
    // The handler is bound before the sockets: a CURVE server with no ZAP handler in its
    // context would accept any client key.
    var zap: ZAPHandler?
    if let keyRing {
      do {
        zap = try await ZAPHandler(context: loop.context, name: "tandem-zap") {
          keyRing.authenticate($0)
        }
      } catch {
        throw LeaderError(starting: error)
      }
    }
    let journal = start.journal
    let differ = LeaderDiffer()
    let perAction = configuration.deltaGrouping == .perAction
    let started: (LoopBound<LeaderEngine<State>>, (String, String))
    do {
      started = try await loop.submit { scope in
        let engine = LoopBound(
          try LeaderEngine(
            scope: scope, store: store, registry: registry, history: history, differ: differ,
            configuration: configuration, fingerprint: fingerprint, schema: schema,
            keyRing: keyRing, journal: journal, recentDeltas: start.recentDeltas),
          scope: scope)
        // Before the loop handles its first request (not before this job returns): an action
        // applied without the observer would change the store unrecorded, unpublished and
        // unjournaled, and its sender would be told that a middleware refused it.
        store.setReductionObserver(
          Self.recorder(
            history: history, registry: registry, differ: perAction ? differ : nil, loop: loop,
            engine: engine),
          seesOldState: perAction)
        return (engine, (engine.value.controlEndpoint, engine.value.updatesEndpoint))
      }
    } catch {
      throw LeaderError(starting: error)
    }
    let (engine, endpoints) = started
    self.store = store
    self.loop = loop
    self.engine = engine
    self.history = history
    self.zap = zap
    self.epoch = start.epoch
    self.fingerprint = fingerprint
    self.schema = schema
    (controlEndpoint, updatesEndpoint) = endpoints
    metrics.addCollector(LeaderMetrics.collector(loop: loop, engine: engine))
    configuration.log.info(
      "epoch \(start.epoch) at sequence \(start.sequence), control \(controlEndpoint), "
        + "updates \(updatesEndpoint)")
  }

  /// Opens the journal `configuration` names, if any, and reads the history to start from
  /// (what ``init(store:registry:configuration:)`` does before it binds).
  static func recover(
    store: Store<State>, configuration: LeaderConfiguration
  ) throws(LeaderError) -> LeaderStart<State> {
    guard let initial = store.state else {
      preconditionFailure("Leader needs a store that has a state")
    }
    do {
      return try LeaderStart(
        initial: initial, configuration: configuration, log: configuration.log)
    } catch {
      throw LeaderError(starting: error)
    }
  }

  /// A leader released without ``stop()`` stops the same way, without waiting for it: this
  /// may run on any thread, the leader's I/O thread included (a subscriber of the store
  /// notified of a follower's action released it).
  deinit {
    let engine = self.engine
    loop.beginShutdown { _ in engine.value.stop() }
  }

  /// The sequence of the newest applied action.
  public var sequence: UInt64 {
    history.read { $0.sequence }
  }

  /// The leader's counters and its followers, as of now.
  public func statistics() async throws -> LeaderStatistics {
    let engine = self.engine
    return try await loop.submit { _ in engine.value.statistics() }
  }

  /// Stops taking requests, publishes and journals what the store applied until then, tells
  /// followers the leader is going (`BYE`), closes the sockets and the journal and ends the I/O
  /// thread. Requests that arrive meanwhile go unanswered (a follower sends them again to the
  /// next leader). The store stays usable as a local store.
  public func stop() async {
    let engine = self.engine
    _ = try? await loop.submit { _ in engine.value.stop() }
    await loop.shutdown()
    await zap?.stop()
  }

  /// Reads the key store again (as `SIGHUP` does in the `tandem` and example leaders, and a
  /// `RELOAD-KEYS` request from an admin key): new keys may connect, and the connections of
  /// keys it no longer holds are cut and can no longer make any request. A store that does not
  /// read is refused, and the keys before stay in force.
  ///
  /// - Returns: how many keys the store holds, and the names of the keys it dropped.
  /// - Throws: ``LeaderError/keys(_:)`` when the store does not read; nothing when the leader
  ///   runs without keys (it returns no keys).
  @discardableResult
  public func reloadKeys() async throws(LeaderError) -> (count: Int, removed: [String]) {
    let engine = self.engine
    let result: Result<(count: Int, removed: [String]), KeyStoreError>
    do {
      result = try await loop.submit { _ in engine.value.reloadKeys() }
    } catch {
      throw .cannotStart(ZMQError(code: .terminated, call: "reloadKeys (the leader stopped)"))
    }
    return try result.mapError { LeaderError.keys($0) }.get()
  }

  /// Logs the leader's security as its first line, loudly in plain mode, and reads the key
  /// store when there are keys.
  private static func announceSecurity(
    of configuration: LeaderConfiguration
  ) throws(KeyStoreError) -> KeyRing? {
    guard let security = configuration.security else {
      configuration.log.warning(
        "PLAIN MODE: no CURVE keys are configured, so the leader neither encrypts nor "
          + "authenticates: anyone who can reach its ports reads the whole state and may "
          + "dispatch any action. Give the leader a key pair and a key store (--key, --keys) "
          + "for CURVE")
      return nil
    }
    let ring = try KeyRing(path: security.keyStore)
    configuration.log.info(
      "CURVE on: leader key \(security.publicKey.z85), \(ring.count) client keys in "
        + "\(security.keyStore); connections without an authorized key are refused")
    return ring
  }

  /// The store's reduction observer: records each reduction in the history, diffed at once
  /// with `differ` (with the new state) when each action is its own delta (then the store keeps
  /// the old state for it), and wakes the loop to publish once per batch (unless it runs on the
  /// loop, which publishes after the requests it handles). Without a differ it keeps no copy of
  /// the state, so the store's reducer changes the state in place.
  private static func recorder(
    history: LeaderHistory<State>, registry: ActionRegistry, differ: LeaderDiffer?,
    loop: IOLoop, engine: LoopBound<LeaderEngine<State>>
  ) -> ReductionObserver<State> {
    { action, old, new, context in
      let origin = context as? Origin ?? .leader
      let tag = registry.tag(of: action) ?? ""
      let wakeLoop: Bool
      if let differ {
        // The leader's store always has a state, so the old one is there.
        guard let old else { preconditionFailure("a leader's store without a state") }
        wakeLoop = history.record(
          origin: origin, tag: tag, patch: differ.patch(from: old, to: new), state: new)
      } else {
        wakeLoop = history.record(origin: origin, tag: tag)
      }
      // On the loop thread the action came from a request, and the loop flushes after the
      // requests it is handling: no wake-up needed.
      if wakeLoop, !loop.inLoopThread {
        loop.execute { _ in engine.value.flush() }
      }
    }
  }
}

extension LeaderError {
  /// The typed error for what starting a leader threw: the journal's, ZeroMQ's, or the initial
  /// state's encoding.
  init(starting error: any Error) {
    switch error {
    case let error as LeaderError: self = error
    case let error as JournalError: self = .journal(error)
    case let error as ZMQError: self = .cannotStart(error)
    default: self = .unencodableState(reason: "\(error)")
    }
  }
}
