import Synchronization
import Tandem
import TandemProtocol
import ZeroMQ

/// What ``Follower`` and ``JSONFollower`` share: the I/O loop with its engine, the protocol
/// (whose outbox the sending threads queue to), and the join.
final class FollowerCore<Model: ReplicaModel>: Sendable {
  typealias State = Model.State

  let configuration: FollowerConfiguration
  let shared: SharedFollowerProtocol
  let store: Store<State>
  /// The I/O loop, which is also the follower's task executor.
  let loop: IOLoop
  let engine: LoopBound<FollowerEngine<Model>>

  /// Joins the leader: returns once the first snapshot is in the replica store.
  init(
    configuration: FollowerConfiguration, fingerprint: String, schema: ApplicationSchema? = nil,
    makeModel: @escaping @Sendable () -> Model
  ) async throws(FollowerError) {
    for leader in configuration.leaderEndpoints where Endpoint(parsing: leader) == nil {
      throw .invalidEndpoint(leader)
    }
    guard FrameReader.clientIDBytes.contains(configuration.clientID.utf8.count) else {
      throw .invalidClientID(configuration.clientID)
    }
    let loop: IOLoop
    do {
      loop = try IOLoop(name: "tandem-follower")
    } catch {
      throw .cannotStart(error)
    }
    let shared = SharedFollowerProtocol(
      FollowerProtocol(
        client: configuration.clientID, fingerprint: fingerprint, schema: schema,
        leaders: LeaderEndpoints(configuration.leaderEndpoints),
        capacity: configuration.outboxCapacity, silenceLimit: configuration.silenceLimit,
        resendAfter: configuration.resendAfter, now: .now))
    let joined = JoinSignal<Store<State>>()
    let engine: LoopBound<FollowerEngine<Model>>
    do {
      engine = try await loop.submit { scope in
        let engine = FollowerEngine(
          scope: scope, configuration: configuration, model: makeModel(), shared: shared)
        engine.onJoined = { joined.resolve($0) }
        engine.connect()
        scope.schedule(after: configuration.joinTimeout) {
          engine.onJoined?(.failure(.joinTimedOut(leader: configuration.leader)))
          engine.onJoined = nil
        }
        return LoopBound(engine, scope: scope)
      }
    } catch {
      throw .stopped
    }
    let result = await joined.value
    switch result {
    case .success(let store):
      self.store = store
    case .failure(let error):
      _ = try? await loop.submit { _ in engine.value.stop() }
      await loop.shutdown()
      throw error
    }
    self.configuration = configuration
    self.shared = shared
    self.loop = loop
    self.engine = engine
  }

  /// A follower released without ``stop()`` stops the same way, without waiting for it: this
  /// may run on any thread, the loop's own included (a subscriber or a task on the follower's
  /// executor released it), or on a thread the loop is waiting for (a delta waits for the
  /// replica store's notification round that released it), so it neither joins nor blocks.
  deinit {
    let engine = self.engine
    loop.beginShutdown { _ in engine.value.stop() }
  }

  /// Queues an encoded action for the leader and wakes the loop to send it.
  func forward(tag: String, payload: Frame) throws(FollowerError) -> Receipt {
    guard payload.count <= configuration.maxActionSize else {
      throw .actionTooLarge(bytes: payload.count, limit: configuration.maxActionSize)
    }
    let receipt = try shared.queue(tag: tag, payload: payload)
    let engine = self.engine
    if !loop.execute({ _ in engine.value.flushOutbox() }) {
      receipt.settle(.failure(.stopped))
    }
    return receipt
  }

  /// The replica's position and the follower's counters.
  func statistics() async throws -> FollowerStatistics {
    let engine = self.engine
    return try await loop.submit { _ in engine.value.statistics() }
  }

  /// The deltas applied to the replica from now on, in order, each with its epoch; the stream
  /// buffers without bound, and ends when the follower stops.
  func deltas() async throws -> AsyncStream<(Epoch, Delta)> {
    try await observe { engine, continuation in
      engine.deltaObservers.append { continuation.yield(($0, $1)) }
    }
  }

  /// The follower's connection now (once the join is in step, at the replica's position) and
  /// at each change after; the stream buffers without bound, and ends when the follower stops.
  func connectionChanges() async throws -> AsyncStream<FollowerConnection> {
    try await observe { engine, continuation in
      if let connection = engine.currentConnection { continuation.yield(connection) }
      engine.connectionObservers.append { continuation.yield($0) }
    }
  }

  /// A stream that `register` feeds from an observer it installs on the engine, on the loop;
  /// the stream ends when the follower stops (at once if it has).
  private func observe<Element: Sendable>(
    _ register:
      @escaping @Sendable (FollowerEngine<Model>, AsyncStream<Element>.Continuation) ->
      Void
  ) async throws -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    let engine = self.engine
    try await loop.submit { _ in
      guard !engine.value.stopped else {
        continuation.finish()
        return
      }
      register(engine.value, continuation)
      engine.value.stopObservers.append { continuation.finish() }
    }
    return stream
  }

  /// Why the follower stopped (see ``Follower/stopReason``); nil while it runs.
  var stopReason: FollowerError? {
    shared.withLock { $0.stopped }
  }

  /// Drops the connection and joins again, as after a network failure (for tests).
  func forceReconnect() async throws {
    let engine = self.engine
    try await loop.submit { _ in engine.value.reconnect(because: "requested") }
  }

  /// Stops following: pending receipts fail with ``FollowerError/stopped``; the store keeps the
  /// last state.
  func stop() async {
    let engine = self.engine
    _ = try? await loop.submit { _ in engine.value.stop() }
    await loop.shutdown()
  }
}

/// A one-time value that an async caller awaits and another thread provides.
final class JoinSignal<Value: Sendable>: Sendable {
  private let state = Mutex<
    (Result<Value, FollowerError>?, CheckedContinuation<Result<Value, FollowerError>, Never>?)
  >((nil, nil))

  /// The value, once provided.
  var value: Result<Value, FollowerError> {
    get async {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state -> Result<Value, FollowerError>? in
          if let result = state.0 { return result }
          state.1 = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    }
  }

  /// Provides the value (the first call wins).
  func resolve(_ result: Result<Value, FollowerError>) {
    let waiter = state.withLock {
      state -> CheckedContinuation<Result<Value, FollowerError>, Never>? in
      guard state.0 == nil else { return nil }
      state.0 = result
      defer { state.1 = nil }
      return state.1
    }
    waiter?.resume(returning: result)
  }
}
