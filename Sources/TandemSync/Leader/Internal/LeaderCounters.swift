import TandemProtocol

/// The leader's event counts, reported by `STATS`.
struct LeaderCounters {
  var deltasPublished = 0
  var bytesPublished = 0
  var snapshotsServed = 0
  var snapshotsEncoded = 0
  var catchUpsServed = 0
  var staleCatchUps = 0
  var actionsApplied = 0
  var actionsRejected = 0
  var duplicates = 0
  var outOfOrder = 0
  var malformedRequests = 0
  var messagesDropped = 0
  var supersededDispatches = 0
  var supersededHellos = 0
  var commits = 0
  var commitFailures = 0
  var journalSnapshots = 0
  var journalCatchUps = 0
  /// Deltas too large for one update message within the updates bound, left to catch-ups.
  var deltasUnpublished = 0
  /// Requests and dispatches refused because the caller's key may not make them.
  var unauthorized = 0
  /// Rejected actions by rejection code, dropped messages by reason, refused HELLOs by reason
  /// (`version`, `fingerprint`): for the metrics, not in `STATS`.
  var rejectedByReason: [String: Int] = [:]
  var droppedByReason: [String: Int] = [:]
  var handshakeFailures: [String: Int] = [:]

  /// The counts by name.
  var dictionary: [String: Int] {
    [
      "deltasPublished": deltasPublished, "bytesPublished": bytesPublished,
      "snapshotsServed": snapshotsServed, "snapshotsEncoded": snapshotsEncoded,
      "catchUpsServed": catchUpsServed, "staleCatchUps": staleCatchUps,
      "actionsApplied": actionsApplied, "actionsRejected": actionsRejected,
      "duplicates": duplicates, "outOfOrder": outOfOrder,
      "malformedRequests": malformedRequests, "messagesDropped": messagesDropped,
      "supersededDispatches": supersededDispatches, "supersededHellos": supersededHellos,
      "commits": commits,
      "commitFailures": commitFailures, "journalSnapshots": journalSnapshots,
      "journalCatchUps": journalCatchUps,
      "deltasUnpublished": deltasUnpublished, "unauthorized": unauthorized,
    ]
  }
}
