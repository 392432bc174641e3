extension LeaderProtocol {
  /// The batch of `actions` could not be decided (`outcome`): fenced off, or with no answer
  /// from the journal. Unlike ``commitFailed(_:restoring:because:into:)`` nothing is rejected:
  /// the replies held for the batch are dropped, whatever they were, and from now on the
  /// leader leaves every forwarded action unanswered and unapplied (their followers send them
  /// to the next leader, whose ledger, recovered from the journal, answers each once). The
  /// leadership rules are told (``LeaderEffect/leadership(_:)``), and demote the leader.
  package mutating func commitUndecided(
    _ actions: [AppliedAction], _ outcome: UndecidedCommit, into effects: inout [LeaderEffect]
  ) {
    let why =
      switch outcome {
      case .fenced: "the journal fenced it off: another leader holds the lease"
      case .outcomeUnknown(let error): "its outcome is unknown (\(error))"
      }
    effects.append(
      .log(
        .error,
        "a batch of \(actions.count) actions did not commit, \(why); leaving them and "
          + "\(held.count) held replies unanswered for the next leader", rateLimited: false))
    held.removeAll(keepingCapacity: true)
    appliedInBatch = 0
    undecided = outcome
    effects.append(.leadership(outcome))
  }
}
