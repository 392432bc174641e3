import StatePatch
import Tandem
import TandemProtocol
import ZeroMQ

extension LeaderEngine {
  /// Handles every request waiting on the control socket, then publishes what they changed and
  /// sends the replies held for it: the actions that arrived together are one batch.
  func requestsArrived() {
    var handled = 0
    while handled < 10_000, let parts = receiveRequest() {
      handled += 1
      guard parts.count >= 2 else {
        counters.malformedRequests += 1
        continue
      }
      let routingID = parts[0]
      let request: ControlRequest
      do {
        request = try ControlRequest(frames: parts, from: 1)
      } catch {
        counters.malformedRequests += 1
        log.rateLimited(.info, "refused a malformed request: \(error)")
        reply(to: routingID, .error(code: error.code, message: error.description), now: true)
        continue
      }
      log.rateLimited(.debug, "request \(request)")
      handle(request, from: routingID)
    }
    flush()
  }

  private func receiveRequest() -> [Frame]? {
    do {
      return try control.receiveParts(wait: .nonBlocking)
    } catch {
      counters.malformedRequests += 1
      log.error("control socket receive failed: \(error)")
      return nil
    }
  }

  private func handle(_ request: ControlRequest, from routingID: Frame) {
    let epoch = history.epoch
    switch request {
    case .hello(let version, let client, let theirs, let generation):
      guard version == ControlRequest.version else {
        counters.handshakeFailures["version", default: 0] += 1
        reply(
          to: routingID,
          .error(
            code: .version, message: "this leader speaks \(ControlRequest.version), not \(version)"
          ),
          now: true)
        return
      }
      guard theirs == fingerprint || theirs == "*" else {
        counters.handshakeFailures["fingerprint", default: 0] += 1
        log.rateLimited(
          .error,
          "refused follower \(client): schema fingerprint \(theirs), expected \(fingerprint)")
        reply(
          to: routingID,
          .error(
            code: .fingerprint,
            message:
              "schema fingerprint \(theirs) does not match the leader's \(fingerprint): "
              + "leader and follower were built with different state or action types"),
          now: true)
        return
      }
      let handed: UInt64
      switch history.hello(client: client, generation: generation) {
      case .superseded(let current):
        // A process that was away (paused, or cut off) while another process took its client
        // id over: its unanswered actions are not its own any more in the ledger's numbering,
        // so it must not be welcomed, or they would be answered as the other's duplicates.
        counters.supersededHellos += 1
        log.info(
          "refused a HELLO for client \(client) of generation \(generation): another process "
            + "took it over (generation \(current))")
        reply(
          to: routingID,
          .error(
            code: .superseded,
            message:
              "another process took client id \(client) over (generation \(current)) while "
              + "this one (generation \(generation)) was away; its unanswered actions may or "
              + "may not have been applied: check the state before sending them again"),
          now: true)
        return
      case .welcome(let assigned):
        handed = assigned
      }
      owners[client] = routingID
      seen(client, at: nil)
      let (lastNumber, forgottenThrough) = history.read {
        ($0.ledger.lastNumber(of: client), $0.ledger.forgottenThrough)
      }
      log.rateLimited(.info, "hello from \(client), last action number \(lastNumber)")
      reply(
        to: routingID,
        .welcome(
          epoch, sequence: published.sequence, lastNumber: lastNumber,
          forgottenThrough: forgottenThrough,
          heartbeatMilliseconds: UInt64(configuration.heartbeatInterval.milliseconds),
          updates: updatesEndpoint, generation: handed, limits: limits), now: true)
    case .snapshot:
      flush()
      let snapshot = snapshot()
      counters.snapshotsServed += 1
      reply(
        to: routingID,
        .state(
          epoch, sequence: snapshot.sequence, stateHash: snapshot.hash,
          document: snapshot.document), now: true)
    case .catchUp(let theirEpoch, let from):
      flush()
      guard theirEpoch == epoch, let deltas = catchUp(from: from) else {
        counters.staleCatchUps += 1
        reply(to: routingID, .stale(epoch, sequence: published.sequence), now: true)
        return
      }
      counters.catchUpsServed += 1
      reply(to: routingID, .deltas(epoch, deltas), now: true)
    case .dispatch(let forwarded):
      dispatch(forwarded, from: routingID, epoch: epoch, quietly: false)
    case .dispatchQuietly(let forwarded):
      dispatch(forwarded, from: routingID, epoch: epoch, quietly: true)
    case .ping(let client, let sequence):
      // Only followers that said HELLO are tracked; an operator's tool pings to check liveness.
      if followers[client] != nil { seen(client, at: sequence) }
      reply(to: routingID, .pong(epoch, sequence: published.sequence), now: true)
    case .stats:
      var encoder = StateEncoder()
      let document = (try? encoder.encode(statistics()).canonicalBytes()) ?? Frame()
      reply(to: routingID, .stats(document: document), now: true)
    }
  }

  /// Applies a forwarded action exactly once (see ``ClientLedger``) and holds its answer until
  /// the batch is published; when sent `quietly`, an applied action's `ACK` is held but not sent
  /// (its delta answers), and is sent only if it becomes a rejection (see `rollBack`).
  private func dispatch(
    _ forwarded: ForwardedAction, from routingID: Frame, epoch: Epoch, quietly: Bool
  ) {
    if oldestUnpublished == nil { oldestUnpublished = .now }
    if let owner = owners[forwarded.client], owner != routingID {
      // Sent on a connection the client has since replaced with a new HELLO (a reconnect, or a
      // restarted process with the same id): the new connection resends what still matters, in
      // its own numbering, so applying this could reuse numbers. The answer reaches a live
      // follower only when another process took its client id over, and that follower stops.
      counters.supersededDispatches += 1
      log.rateLimited(
        .debug, "refused \(forwarded.tag) #\(forwarded.number) from a superseded connection")
      reply(
        to: routingID,
        .error(
          code: .superseded,
          message: "another connection said HELLO for client \(forwarded.client) after this one"
        ))
      return
    }
    let verdict: ClientLedger.Verdict
    switch history.judge(forwarded) {
    case .success(let judged):
      verdict = judged
    case .failure(let superseded):
      let current = superseded.current
      // Sent by a process another process took the client id over from (see `hello`): its
      // numbers now belong to the other's numbering, so it gets no verdict on them at all.
      counters.supersededDispatches += 1
      reply(
        to: routingID,
        .error(
          code: .superseded,
          message:
            "another process took client id \(forwarded.client) over (generation \(current)) "
            + "after this one (generation \(forwarded.generation)) said HELLO"))
      return
    }
    let origin = Origin(
      client: forwarded.client, number: forwarded.number, generation: forwarded.generation)
    switch verdict {
    case .duplicate(let sequence):
      counters.duplicates += 1
      reply(
        to: routingID, .ack(client: origin.client, number: origin.number, epoch, sequence: sequence)
      )
    case .rejected(let rejection):
      counters.duplicates += 1
      reply(to: routingID, .reject(client: origin.client, number: origin.number, rejection))
    case .outOfOrder(let expected):
      counters.outOfOrder += 1
      let rejection = Rejection(
        code: .outOfOrder, message: "expected action number \(expected), got \(forwarded.number)")
      reply(to: routingID, .reject(client: origin.client, number: origin.number, rejection))
    case .apply:
      switch apply(forwarded, origin: origin) {
      case .success(let sequence):
        counters.actionsApplied += 1
        reply(
          to: routingID,
          .ack(client: origin.client, number: origin.number, epoch, sequence: sequence),
          quietly: quietly)
      case .failure(let unbounded):
        let rejection = unbounded.bounded
        counters.actionsRejected += 1
        counters.rejectedByReason[rejection.code.rawValue, default: 0] += 1
        history.recordRejected(origin, rejection)
        log.rateLimited(.info, "rejected \(forwarded.tag) from \(origin): \(rejection)")
        reply(to: routingID, .reject(client: origin.client, number: origin.number, rejection))
      }
    }
  }

  /// The published deltas from `sequence` on: from the in-memory backlog, else from the
  /// journal's catch-up window; nil when neither reaches back that far, or when they hold more
  /// than ``LeaderConfiguration/maximumCatchUpBytes`` patch bytes.
  private func catchUp(from sequence: UInt64) -> [Delta]? {
    // In step (an empty backlog too, as after recovery): nothing to send, and no snapshot needed.
    if sequence == published.sequence + 1 { return [] }
    let limit = configuration.maximumCatchUpBytes
    if let deltas = backlog.deltas(from: sequence) {
      var bytes = 0
      for delta in deltas {
        bytes += delta.patch.count
        if bytes > limit { return nil }
      }
      return Array(deltas)
    }
    guard let journal, sequence <= published.sequence else { return nil }
    do {
      guard let deltas = try journal.deltas(from: sequence, maximumBytes: limit) else {
        return nil
      }
      counters.journalCatchUps += 1
      return deltas
    } catch {
      log.error("catch-up from the journal failed: \(error)")
      return nil
    }
  }

  /// Decodes, validates and dispatches one action; the sequence it took effect at, or why not.
  private func apply(_ forwarded: ForwardedAction, origin: Origin) -> Result<UInt64, Rejection> {
    let action: any Action
    do throws(ActionRegistryError) {
      action = try ActionPayload.decode(
        tag: forwarded.tag, payload: forwarded.payload, registry: registry)
    } catch {
      return .failure(Rejection(error))
    }
    if let rejection = configuration.validate?(action, origin) {
      // `out-of-order` tells a follower that the number is not used up, and it would resend.
      guard rejection.code != .outOfOrder else {
        return .failure(Rejection(code: .refused, message: rejection.message))
      }
      return .failure(rejection)
    }
    store.dispatch(action, context: origin)
    let entry = history.read { $0.ledger.entries[origin.client] }
    guard let entry, entry.lastNumber == origin.number else {
      return .failure(
        Rejection(code: .refused, message: "a middleware did not pass the action to the reducer"))
    }
    return .success(entry.lastSequence)
  }

  /// Notes that the follower `client` was heard from (HELLO or PING), with the sequence its
  /// replica reported, if any, then forgets the followers the leader no longer tracks (see
  /// ``forgetFollowers(now:)``). It costs amortized O(1), whatever the number of followers.
  private func seen(_ client: String, at sequence: UInt64?) {
    let now = ContinuousClock.now
    let previous = followers[client]?.sequence ?? 0
    followers[client] = (now, sequence ?? previous)
    followersBySeen.append(
      client, at: now, tableCount: followers.count, isCurrent: isCurrentFollower)
    forgetFollowers(now: now)
  }

  /// Forgets the followers not heard from for ``followerSilenceLimit``, and the least recently
  /// heard from beyond ``LeaderConfiguration/maximumFollowers``, with the client ids they
  /// owned: a PING under a new client id adds one, so followers are only ever a bounded list.
  func forgetFollowers(now: ContinuousClock.Instant) {
    let cutoff = now - Self.followerSilenceLimit
    while let oldest = followersBySeen.oldest(isCurrent: isCurrentFollower),
      oldest.stamp < cutoff || followers.count > configuration.maximumFollowers
    {
      followers[oldest.key] = nil
      owners[oldest.key] = nil
      followersBySeen.removeOldest()
    }
  }

  /// How long a follower not heard from stays in ``followers``.
  static var followerSilenceLimit: Duration { .seconds(60) }

  /// Whether a mark of ``followersBySeen`` is the follower's last contact.
  private var isCurrentFollower: (String, ContinuousClock.Instant) -> Bool {
    { [unowned self] client, lastSeen in followers[client]?.lastSeen == lastSeen }
  }

  /// Sends `reply` to `routingID` now, or after the current batch is committed and published
  /// (`quietly`: only if it has become a rejection by then).
  private func reply(
    to routingID: Frame, _ reply: ControlReply, now: Bool = false, quietly: Bool = false
  ) {
    if now && pendingReplies.isEmpty {
      send(reply, to: routingID)
    } else {
      pendingReplies.append((routingID, reply, quietly))
    }
  }
}

extension Rejection {
  /// The rejection for an action the registry could not decode.
  init(_ error: ActionRegistryError) {
    switch error {
    case .unknownTag(let tag):
      self.init(code: .unknownTag, message: "no action type is registered under '\(tag)'")
    case .undecodable, .unencodable, .unregisteredType:
      self.init(code: .undecodable, message: error.description)
    }
  }
}

extension Duration {
  /// The duration in whole milliseconds.
  var milliseconds: Int64 {
    components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
  }
}

extension LeaderEngine {
  /// What this leader accepts of an action, as its `WELCOME` announces: a payload of up to its
  /// largest message (ZeroMQ refuses a larger one and closes the connection), and the frame
  /// reader's tags and client ids.
  var limits: ProtocolLimits {
    ProtocolLimits(
      maximumPayloadBytes: UInt64(max(configuration.maxMessageSize, 0)),
      maximumTagBytes: UInt64(FrameReader.textBytes),
      maximumClientIDBytes: UInt64(FrameReader.clientIDBytes.upperBound))
  }
}
