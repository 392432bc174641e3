import StatePatch
import Tandem
import TandemProtocol
import ZeroMQ

extension LeaderEngine {
  /// Handles every request waiting on the control socket (see ``LeaderProtocol``), then
  /// publishes what they changed and sends the replies held for it: the actions that arrived
  /// together are one batch.
  func requestsArrived() {
    var handled = 0
    let now = ContinuousClock.now
    while handled < 10_000, let (parts, userID) = receiveRequest() {
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
        core.malformed(error, from: routingID, into: &effects)
        perform()
        continue
      }
      log.rateLimited(.debug, "request \(request)")
      if LeaderProtocol.needsCommit(before: request) { flush() }
      // The batch's arrival, read once above, starts the dispatch-to-publish latency.
      if case .dispatch = request, oldestUnpublished == nil { oldestUnpublished = now }
      if case .dispatchQuietly = request, oldestUnpublished == nil { oldestUnpublished = now }
      var ledger = history
      core.receive(
        request, from: routingID, caller: caller(userID), now: now, ledger: &ledger,
        into: &effects)
      perform()
    }
    flush()
  }

  /// The next request's frames, with the name of the key its connection authenticated with
  /// (with CURVE keys).
  private func receiveRequest() -> (parts: [Frame], userID: String?)? {
    do {
      guard keyRing != nil else {
        return try control.receiveParts(wait: .nonBlocking).map { ($0, nil) }
      }
      return try control.receivePartsWithUserID(wait: .nonBlocking)
    } catch {
      counters.malformedRequests += 1
      log.error("control socket receive failed: \(error)")
      return nil
    }
  }

  /// Who sent a request whose connection authenticated as `userID`: nobody in plain mode,
  /// else the key of that name with what the key store grants it now.
  private func caller(_ userID: String?) -> Caller {
    guard let keyRing else { return .open }
    let name = userID ?? ""
    return .key(name: name, grant: name.isEmpty ? nil : keyRing.grant(named: name))
  }

  /// Decodes, validates and dispatches one action; the sequence it took effect at, or why not
  /// (``LeaderProtocol`` makes an application's `out-of-order` a `refused`).
  func apply(_ forwarded: ForwardedAction, origin: Origin) -> Result<UInt64, Rejection> {
    let action: any Action
    do throws(ActionRegistryError) {
      action = try ActionPayload.decode(
        tag: forwarded.tag, payload: forwarded.payload, registry: registry)
    } catch {
      return .failure(Rejection(error))
    }
    if let rejection = configuration.validate?(action, origin) { return .failure(rejection) }
    store.dispatch(action, context: origin)
    let entry = history.read { $0.ledger.entries[origin.client] }
    guard let entry, entry.lastNumber == origin.number else {
      return .failure(
        Rejection(code: .refused, message: "a middleware did not pass the action to the reducer"))
    }
    return .success(entry.lastSequence)
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
  /// What a leader of `configuration` accepts of an action, as its `WELCOME` announces: a
  /// payload of up to its largest message (ZeroMQ refuses a larger one and closes the
  /// connection), and the frame reader's tags and client ids.
  static func limits(of configuration: LeaderConfiguration) -> ProtocolLimits {
    ProtocolLimits(
      maximumPayloadBytes: UInt64(max(configuration.maxMessageSize, 0)),
      maximumTagBytes: UInt64(FrameReader.textBytes),
      maximumClientIDBytes: UInt64(FrameReader.clientIDBytes.upperBound))
  }

  /// The largest frame the control socket takes (`ZMQ_MAXMSGSIZE`): the announced payload
  /// limit, plus what a `DISPATCH` body holds beside the payload; no limit stays none.
  static func controlFrameLimit(_ configuration: LeaderConfiguration) -> Int {
    configuration.maxMessageSize < 0
      ? configuration.maxMessageSize
      : configuration.maxMessageSize + DispatchBody.maximumOverheadBytes
  }
}
