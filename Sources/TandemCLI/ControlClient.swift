import CommandLineKit
import StatePatch
import TandemProtocol
import TandemSync
import ZeroMQ

/// One-shot requests to a leader's control socket from a command-line tool: a snapshot, a
/// dispatch, statistics, a hand-over of the lease, or raw frames for debugging.
///
/// Every call connects a `DEALER`, sends one request, waits at most the connection's timeout for
/// the reply and closes the socket. Calls block the calling thread: use them from a command's
/// main thread. Failures are ``CommandLineKit/CommandFailure``s whose status follows
/// ``ExitCodes``.
public struct ControlClient: Sendable {
  /// Where and how long.
  public var connection: LeaderConnection

  /// A client for the leader and timeout in `connection`.
  public init(_ connection: LeaderConnection) {
    self.connection = connection
  }

  /// The leader's state as of one sequence (`SNAPSHOT`), consistent with its epoch and hash.
  public func snapshot() throws(CommandFailure) -> Snapshot {
    let reply = try request(ControlRequest.snapshot)
    guard case .state(let epoch, let sequence, let hash, let document) = reply else {
      throw unexpected(reply, wanted: "STATE")
    }
    do {
      let state = try JSONParser().parse(document)
      guard state.canonicalHash() == hash else {
        throw CommandFailure(
          .protocolError, "the leader's STATE does not match its own state hash")
      }
      return Snapshot(epoch: epoch, sequence: sequence, stateHash: hash, state: state)
    } catch let failure as CommandFailure {
      throw failure
    } catch {
      throw CommandFailure(.protocolError, "the leader's STATE is not JSON: \(error)")
    }
  }

  /// Forwards one action as a new client with action number 1 (`DISPATCH`): the leader applies
  /// it exactly once. Returns the epoch and sequence at which it took effect.
  ///
  /// - Throws: a failure with status ``CommandLineKit/ExitStatus/dataError`` when the leader
  ///   rejects the action, naming the reason; with status
  ///   ``CommandLineKit/ExitStatus/unavailable`` when no reply came in time, saying that the
  ///   leader may have applied the action all the same.
  public func dispatch(
    tag: String, payload: JSONValue,
    client: String = "tandem-cli-" + FollowerConfiguration.randomClientID()
  ) throws(CommandFailure) -> (epoch: Epoch, sequence: UInt64) {
    let action = ForwardedAction(
      client: client, number: 1, tag: tag, payload: payload.canonicalBytes())
    let reply = try request(ControlRequest.dispatch(action))
    switch reply {
    case .ack(_, _, let epoch, let sequence):
      return (epoch, sequence)
    case .reject(_, _, let rejection):
      throw CommandFailure(
        rejection.code == .unauthorized ? .noPermission : .dataError,
        "the leader rejected \(tag): \(rejection)")
    default:
      throw unexpected(reply, wanted: "ACK or REJECT")
    }
  }

  /// The leader's statistics (`STATS`).
  public func statistics() throws(CommandFailure) -> LeaderStatistics {
    let reply = try request(ControlRequest.stats)
    guard case .stats(let document) = reply else { throw unexpected(reply, wanted: "STATS") }
    do {
      var decoder = StateDecoder()
      return try decoder.decode(LeaderStatistics.self, from: JSONParser().parse(document))
    } catch {
      throw CommandFailure(.protocolError, "the leader's STATS cannot be read: \(error)")
    }
  }

  /// Has the leader read its key store again (`RELOAD-KEYS`, an admin key's request); returns
  /// how many keys it holds and the names of those it dropped.
  public func reloadKeys() throws(CommandFailure) -> (count: UInt64, removed: [String]) {
    let reply = try request(ControlRequest.reloadKeys)
    guard case .keys(let count, let removed) = reply else {
      throw unexpected(reply, wanted: "KEYS")
    }
    return (count, removed)
  }

  /// Asks the active leader to hand its lease over to a standby leader (`STEP-DOWN`, an admin
  /// key's request): it commits and answers the batch in flight, gives the lease up and becomes
  /// a standby. Returns the lease handed over (the holder's leader id and fencing epoch) and the
  /// control endpoint of the leader that answered; a standby's `REDIRECT` is followed to it.
  ///
  /// - Throws: a failure with status ``CommandLineKit/ExitStatus/protocolError`` when the
  ///   leader holds no lease to hand over (`ERROR no-lease`: it runs without standby leaders,
  ///   or does not hold the lease right now), saying which; ``CommandLineKit/ExitStatus/noPermission``
  ///   when the key is not an admin's; ``CommandLineKit/ExitStatus/unavailable`` when no
  ///   leader answered in time.
  public func stepDown() throws(CommandFailure) -> (
    holder: String, fencingEpoch: UInt64, leader: String
  ) {
    let (endpoint, reply) = try answer(to: ControlRequest.stepDown)
    switch reply {
    case .handingOver(let holder, let fencingEpoch):
      return (holder, fencingEpoch, endpoint)
    case .error(.noLease, let message):
      throw CommandFailure(
        .protocolError, "the leader at \(endpoint) has no lease to hand over: \(message)")
    default:
      throw refusal(reply) ?? unexpected(reply, wanted: "HANDING-OVER")
    }
  }

  /// Sends `frames` as they are to the first leader endpoint given and returns the reply's
  /// frames, without interpreting either (a `REDIRECT` is returned, not followed).
  public func raw(_ frames: [[UInt8]]) throws(CommandFailure) -> [[UInt8]] {
    guard let parts = try exchange(frames, with: connection.leader) else {
      throw Self.failure(.noReply(leader: connection.leader, timeout: connection.timeout))
    }
    return parts
  }

  /// Sends a request and decodes the reply; an `ERROR` reply becomes a failure. A standby's
  /// `REDIRECT` sends the request on (``TandemProtocol``'s `LeaderRequestRoute`); silence does
  /// too, except for an action, which may have been applied, and a `STEP-DOWN`, which may have
  /// begun a hand-over.
  private func request(_ request: ControlRequest) throws(CommandFailure) -> ControlReply {
    let (_, reply) = try answer(to: request)
    if let refusal = refusal(reply) { throw refusal }
    return reply
  }

  /// Sends a request as ``request(_:)`` does, and returns the endpoint that answered and its
  /// reply, an `ERROR` too.
  private func answer(
    to request: ControlRequest
  ) throws(CommandFailure) -> (endpoint: String, reply: ControlReply) {
    let (endpoint, parts) = try routed(
      request.frames, route: LeaderRequestRoute(connection.leaders, for: request),
      afterSilence: Self.afterSilence(request))
    do {
      return (endpoint, try ControlReply(frames: parts))
    } catch {
      throw CommandFailure(.protocolError, "the leader's reply is malformed: \(error)")
    }
  }

  /// The failure an `ERROR` reply is; nil for any other reply.
  private func refusal(_ reply: ControlReply) -> CommandFailure? {
    guard case .error(let code, let message) = reply else { return nil }
    return CommandFailure(
      code == .unauthorized ? .noPermission : .protocolError,
      "the leader refused the request (\(code)): \(message)")
  }

  /// What the message of a request that a silent leader ends says may have happened all the
  /// same, and what to do about it.
  private static func afterSilence(_ request: ControlRequest) -> String {
    switch request {
    case .stepDown:
      " The leader may have begun handing over all the same: check with `tandem stats` before "
        + "asking again."
    default:
      " The leader may have applied it anyway: check with `tandem snapshot` before sending it "
        + "again."
    }
  }

  /// Sends `frames` along the route over the connection's endpoints, and returns the first
  /// reply that is not a `REDIRECT`, with the endpoint that sent it. A silence that ends the
  /// route adds `afterSilence` to the message.
  private func routed(
    _ frames: [[UInt8]], route: LeaderRequestRoute, afterSilence: String
  ) throws(CommandFailure) -> (endpoint: String, parts: [[UInt8]]) {
    var route = route
    var step = route.first
    var silence: CommandFailure?
    var redirected = false
    var lastSilent = false
    while true {
      switch step {
      case .send(let endpoint):
        guard let parts = try exchange(frames, with: endpoint) else {
          silence = Self.failure(.noReply(leader: endpoint, timeout: connection.timeout))
          lastSilent = true
          step = route.next(after: .silent)
          continue
        }
        guard case .redirect(let control, _, _, _)? = try? ControlReply(frames: parts) else {
          return (endpoint, parts)
        }
        redirected = true
        lastSilent = false
        step = route.next(after: .redirected(control: control))
      case .giveUp(let reason):
        var message =
          if let silence, connection.leaders.count == 1, !redirected {
            silence.message
          } else {
            "no active leader answered (\(reason)). Check that one of them holds the lease "
              + "(tandem stats on each), or give its endpoint with --leader."
          }
        if lastSilent, !route.resendsAfterSilence {
          // The request may have reached a leader whose answer came too late: an action sent
          // again would be another client's and be applied a second time; a STEP-DOWN would
          // hand over again.
          message += afterSilence
        }
        throw CommandFailure(.unavailable, message)
      case .done:
        preconditionFailure("a route is done only after a reply")
      }
    }
  }

  /// Sends `frames` to `endpoint` and returns the reply's frames, or nil when none came in
  /// time.
  private func exchange(
    _ frames: [[UInt8]], with endpoint: String
  ) throws(CommandFailure) -> [[UInt8]]? {
    guard Endpoint(parsing: endpoint) != nil else {
      throw CommandFailure(.usage, "'\(endpoint)' is not an endpoint")
    }
    let control = LeaderControl(
      leader: endpoint, timeout: connection.timeout, security: connection.security)
    do {
      return try control.exchange(frames)
    } catch LeaderControlError.noReply {
      return nil
    } catch let error as LeaderControlError {
      throw Self.failure(error)
    } catch {
      throw CommandFailure(.unavailable, "cannot reach the leader at \(endpoint): \(error)")
    }
  }

  private func unexpected(_ reply: ControlReply, wanted: String) -> CommandFailure {
    let command = reply.frames.first.map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
    return CommandFailure(.protocolError, "the leader answered \(command), not \(wanted)")
  }

  /// The failure, with its exit status, for an error of ``TandemSync/LeaderControl``.
  static func failure(_ error: LeaderControlError) -> CommandFailure {
    switch error {
    case .invalidEndpoint: CommandFailure(.usage, error.description)
    case .noReply: CommandFailure(.unavailable, error.description)
    case .refused(.unauthorized, _): CommandFailure(.noPermission, error.description)
    case .refused, .unexpectedReply: CommandFailure(.protocolError, error.description)
    case .authenticationFailed: CommandFailure(.noPermission, error.description)
    }
  }
}
