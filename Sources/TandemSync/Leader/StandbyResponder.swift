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
  private let loop: IOLoop
  private let state = State()

  /// The reply to send and the count of requests answered, shared with the loop thread.
  private final class State: Sendable {
    let reply = Mutex<ControlReply>(StandbyResponder.noLeader)
    let answered = Atomic<Int>(0)
  }

  /// The answer while no leader is known to serve: try again, or another endpoint.
  static let noLeader = ControlReply.redirect(
    control: "", updates: "", fencingEpoch: 0, holder: "")

  /// Binds `control` (a ROUTER) and starts answering.
  ///
  /// - Throws: ``LeaderError/invalidEndpoint(_:)``, ``LeaderError/cannotBind(endpoint:cause:)``
  ///   or ``LeaderError/cannotStart(_:)``.
  public init(control: String) async throws(LeaderError) {
    guard let endpoint = Endpoint(parsing: control) else { throw .invalidEndpoint(control) }
    do {
      loop = try IOLoop(name: "tandem-standby")
    } catch {
      throw .cannotStart(error)
    }
    let state = state
    do {
      controlEndpoint = try await loop.submit { scope -> String in
        let socket = try scope.makeSocket(.router)
        try? socket.set(.linger, .zero)
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
        return try socket.lastEndpoint.description
      }
    } catch {
      await loop.shutdown()
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

  /// How many requests it answered so far.
  public var requestsAnswered: Int { state.answered.load(ordering: .relaxed) }

  /// Closes the socket (freeing the endpoint) and ends the I/O thread.
  public func stop() async {
    await loop.shutdown()
  }
}
