import Synchronization
import TandemProtocol
import ZeroMQ

/// The control socket of a standby leader: it serves no follower, and answers every request
/// with `REDIRECT` to the lease holder it was last told of (or to none), so that followers given
/// this endpoint find the active leader.
///
/// ```swift
/// let standby = try await StandbyResponder(control: "tcp://*:5600")
/// standby.redirect(to: try lease.current())   // the holder, while its lease runs
/// // ... once this process takes the lease:
/// await standby.stop()                         // frees the endpoint for the leader's socket
/// ```
///
/// It runs on an I/O thread of its own; ``redirect(to:)`` may be called from any thread.
public final class StandbyResponder: Sendable {
  /// The bound control endpoint, with the real port.
  public let controlEndpoint: String
  /// The updates endpoint it holds for the leader this process may become, with the real port;
  /// nil when it was given none.
  public let updatesEndpoint: String?
  private let loop: IOLoop
  private let state = State()
  /// The ZAP handler checking client keys, with CURVE keys.
  private let zap: ZAPHandler?
  /// The key store the handler checks against, with CURVE keys.
  private let keyRing: KeyRing?

  /// The reply to send and the count of requests answered, shared with the loop thread.
  private final class State: Sendable {
    let reply = Mutex<ControlReply>(StandbyResponder.noLeader)
    let answered = Atomic<Int>(0)
  }

  /// The answer while no leader is known to serve: try again, or another endpoint.
  static let noLeader = ControlReply.redirect(
    control: "", updates: "", fencingEpoch: 0, holder: "")

  /// Binds `control` (a ROUTER) and starts answering; with `updates`, also binds an updates
  /// socket (an XPUB that sends nothing) there, so that the endpoint (its port, when `updates`
  /// names none) stays this process's for the leader it may become. With `security`, both are
  /// CURVE servers whose clients the key store authenticates, as the leader's are: a follower
  /// with keys reaches the standby, and one without learns nothing.
  ///
  /// - Throws: ``LeaderError/invalidEndpoint(_:)``, ``LeaderError/cannotBind(endpoint:cause:)``,
  ///   ``LeaderError/keys(_:)`` or ``LeaderError/cannotStart(_:)``.
  public init(
    control: String, updates: String? = nil, security: LeaderSecurity? = nil
  ) async throws(LeaderError) {
    guard let endpoint = Endpoint(parsing: control) else { throw .invalidEndpoint(control) }
    let updatesAt = try updates.map { (text) throws(LeaderError) -> Endpoint in
      guard let endpoint = Endpoint(parsing: text) else { throw .invalidEndpoint(text) }
      return endpoint
    }
    do {
      loop = try IOLoop(name: "tandem-standby")
    } catch {
      throw .cannotStart(error)
    }
    var zap: ZAPHandler?
    var keyRing: KeyRing?
    if let security {
      let ring: KeyRing
      do throws(KeyStoreError) {
        ring = try KeyRing(path: security.keyStore)
      } catch {
        await loop.shutdown()
        throw .keys(error)
      }
      keyRing = ring
      do {
        zap = try await ZAPHandler(context: loop.context, name: "tandem-standby-zap") {
          ring.authenticate($0)
        }
      } catch {
        await loop.shutdown()
        throw LeaderError(starting: error)
      }
    }
    self.zap = zap
    self.keyRing = keyRing
    let state = state
    do {
      (controlEndpoint, updatesEndpoint) = try await loop.submit { scope -> (String, String?) in
        var heldUpdates: String?
        if let updatesAt, let updates {
          let socket = try scope.makeSocket(.xpub)
          try? socket.set(.linger, .zero)
          try LeaderSecurity.secure(socket, with: security)
          do {
            try socket.bind(updatesAt)
          } catch let error as ZMQError {
            throw LeaderError.cannotBind(endpoint: updates, cause: error)
          }
          heldUpdates = try socket.lastEndpoint.description
          scope.register(socket) { socket in
            // Subscriptions only: a standby publishes nothing.
            while (try? socket.receiveParts(wait: .nonBlocking)) != nil {}
          }
        }
        let socket = try scope.makeSocket(.router)
        try? socket.set(.linger, .zero)
        try LeaderSecurity.secure(socket, with: security)
        do {
          try socket.bind(endpoint)
        } catch let error as ZMQError {
          throw LeaderError.cannotBind(endpoint: control, cause: error)
        }
        scope.register(socket) { socket in
          while let parts = try? socket.receiveParts(wait: .nonBlocking) {
            guard parts.count >= 2 else { continue }
            let reply = state.reply.withLock { $0 }
            _ = try? socket.send(parts: reply.frames(to: parts[0]), wait: .nonBlocking)
            state.answered.add(1, ordering: .relaxed)
          }
        }
        return (try socket.lastEndpoint.description, heldUpdates)
      }
    } catch {
      await loop.shutdown()
      await zap?.stop()
      throw LeaderError(starting: error)
    }
  }

  /// Redirects followers to `lease`'s holder from now on; nil (or an expired lease) names none.
  public func redirect(to lease: LeaseRecord?) {
    let reply =
      lease.flatMap { lease in
        lease.isExpired
          ? nil
          : ControlReply.redirect(
            control: lease.control, updates: lease.updates, fencingEpoch: lease.fencingEpoch,
            holder: lease.holder)
      } ?? Self.noLeader
    state.reply.withLock { $0 = reply }
  }

  /// Reads the key store again (as a leader's ``Leader/reloadKeys()`` does): keys added since
  /// may connect; a store that does not read is refused and the keys before stay in force.
  /// Returns how many keys the store holds and the names of those it dropped (a standby only
  /// redirects, so their connections are left to close by themselves). Nothing without keys.
  @discardableResult
  public func reloadKeys() throws(KeyStoreError) -> (count: Int, removed: [String]) {
    guard let keyRing else { return (0, []) }
    return try keyRing.reload()
  }

  /// How many requests it answered so far.
  public var requestsAnswered: Int { state.answered.load(ordering: .relaxed) }

  /// Closes the sockets (freeing the endpoints) and ends the I/O thread.
  public func stop() async {
    await loop.shutdown()
    await zap?.stop()
  }
}
