extension ClientLedger {
  /// A ledger holding exactly `entries`, as recovered from a journal.
  ///
  /// Built through the public recording calls (whose effect on an entry is fully defined):
  /// `recordApplied` sets the number and sequence, then `recordRejected` sets the activity
  /// while keeping the sequence.
  public init(idleLimit: UInt64 = 10_000_000, restoring entries: [String: Entry]) {
    self.init(idleLimit: idleLimit)
    for (client, entry) in entries {
      recordApplied(client: client, number: entry.lastNumber, sequence: entry.lastSequence)
      recordRejected(client: client, number: entry.lastNumber, now: entry.lastActive)
    }
  }
}
