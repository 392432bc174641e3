import StatePatch
import Tandem
import TandemProtocol
import ZeroMQ

extension LeaderEngine {
  /// Whether `reply` may go: one that acknowledges (`ACK`, `WELCOME`, `DELTAS`) only while
  /// ``LeaderConfiguration/mayAcknowledge`` allows it.
  func acknowledges(_ reply: ControlReply) -> Bool {
    switch reply {
    case .ack, .welcome, .deltas: mayAcknowledge()
    default: true
    }
  }

  /// Whether `message` may go: a delta or a heartbeat only while
  /// ``LeaderConfiguration/mayAcknowledge`` allows it (`BYE` always). A leader that cannot be
  /// sure of its lease falls silent, so that its followers move to the leader that takes over
  /// instead of waiting on one that answers nothing.
  func acknowledges(_ message: UpdateMessage) -> Bool {
    switch message {
    case .delta, .deltas, .heartbeat: mayAcknowledge()
    default: true
    }
  }

  /// Asks ``LeaderConfiguration/mayAcknowledge``; a refusal is counted as a withheld message.
  func mayAcknowledge() -> Bool {
    guard let gate = configuration.mayAcknowledge, !gate() else { return true }
    dropped(.withheld)
    return false
  }

  /// Carries out the effects ``core`` returned, in order, with those that carrying them out adds
  /// (an applied action's outcome, a journal window), then empties the buffer for reuse.
  func perform() {
    var index = 0
    while index < effects.count {
      let effect = effects[index]
      index += 1
      switch effect {
      case .reply(let connection, let reply):
        guard acknowledges(reply) else { break }
        send(reply, to: connection)
      case .replyAfterCommit:
        break  // the core holds it, and returns it as `.reply` when the batch commits
      case .apply(let forwarded, let origin, let connection, let quietly):
        let result = apply(forwarded, origin: origin)
        var ledger = history
        core.applied(
          forwarded, from: connection, key: origin.key, quietly: quietly, result: result,
          ledger: &ledger, into: &effects)
      case .publish(let message):
        guard acknowledges(message) else { break }
        let frames = message.frames
        send(frames, on: updates)
        counters.bytesPublished += frames.reduce(0) { $0 + $1.count }
        log.debug("published \(message.summary)")
      case .readJournal(let from, let maximumBytes, let connection):
        let window = readJournal(from: from, maximumBytes: maximumBytes)
        core.journalWindow(window, from: from, for: connection, into: &effects)
      case .sendSnapshot(let connection):
        let snapshot = snapshot()
        counters.snapshotsServed += 1
        send(
          .state(
            history.epoch, sequence: snapshot.sequence, stateHash: snapshot.hash,
            document: snapshot.document), to: connection)
      case .sendStatistics(let connection):
        var encoder = StateEncoder()
        let document = (try? encoder.encode(statistics()).canonicalBytes()) ?? Frame()
        send(.stats(document: document), to: connection)
      case .reloadKeys(let connection):
        switch reloadKeys() {
        case .success(let result):
          send(.keys(count: UInt64(result.count), removed: result.removed), to: connection)
        case .failure(let error):
          send(
            .error(code: .malformed, message: "the key store was kept as it was: \(error)"),
            to: connection)
        }
      case .stepDown(let connection):
        let answer: HandOver =
          if let stepDown = configuration.stepDown {
            stepDown().map(HandOver.began) ?? .notHolding
          } else {
            .withoutLease
          }
        core.stepDownAnswered(answer, for: connection, into: &effects)
      case .log(let level, let message, let rateLimited):
        write(message, at: level, rateLimited: rateLimited)
      case .count(let event):
        counters.count(event)
      case .leadership(let undecided):
        switch undecided {
        case .fenced: configuration.commitUndecided?(true, "the journal fenced the commit off")
        case .outcomeUnknown(let error): configuration.commitUndecided?(false, error)
        }
      }
    }
    effects.removeAll(keepingCapacity: true)
  }

  /// The journal's catch-up window from `sequence`, of at most `maximumBytes` of patches.
  private func readJournal(from sequence: UInt64, maximumBytes: Int) -> Result<[Delta]?, any Error>
  {
    guard let journal else { return .success(nil) }
    do {
      return .success(try journal.deltas(from: sequence, maximumBytes: maximumBytes))
    } catch {
      return .failure(error)
    }
  }

  /// Writes a line of the core's to the log; each level of rate-limited lines has its own
  /// budget.
  private func write(_ message: String, at level: LeaderLogLevel, rateLimited: Bool) {
    let level: TandemLogger.Level =
      switch level {
      case .debug: .debug
      case .info: .info
      case .error: .error
      }
    guard rateLimited else { return log.log(level: level, message) }
    switch level {
    case .debug: log.rateLimited(.debug, message)
    case .info: log.rateLimited(.info, message)
    default: log.rateLimited(level, message)
    }
  }
}

extension UpdateMessage {
  /// The sequences a published message covers, for the log.
  fileprivate var summary: String {
    switch self {
    case .delta(_, let delta): "\(delta.firstSequence)...\(delta.sequence)"
    case .deltas(_, let deltas):
      "\(deltas.first?.firstSequence ?? 0)...\(deltas.last?.sequence ?? 0)"
    case .heartbeat(_, let sequence, _): "a heartbeat at \(sequence)"
    case .bye(_, let sequence): "a goodbye at \(sequence)"
    }
  }
}

extension LeaderCounters {
  /// Counts one of the core's events.
  mutating func count(_ event: LeaderEvent) {
    switch event {
    case .handshakeFailure(let code): handshakeFailures[code.rawValue, default: 0] += 1
    case .supersededHello: supersededHellos += 1
    case .supersededDispatch: supersededDispatches += 1
    case .duplicate: duplicates += 1
    case .outOfOrder: outOfOrder += 1
    case .actionsApplied(let count): actionsApplied += count
    case .actionRejected(let code):
      actionsRejected += 1
      rejectedByReason[code.rawValue, default: 0] += 1
    case .catchUpServed: catchUpsServed += 1
    case .staleCatchUp: staleCatchUps += 1
    case .journalCatchUp: journalCatchUps += 1
    case .deltasPublished(let count): deltasPublished += count
    case .deltaUnpublished: deltasUnpublished += 1
    case .commitFailure: commitFailures += 1
    case .unauthorized: unauthorized += 1
    }
  }
}
