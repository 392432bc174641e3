import TandemJournal

/// The journal's refusals of commits since the last one that went through: while there is
/// one, the leader is degraded (`STATS` says so, and `tandem stats` exits non-zero).
struct JournalRefusal {
  /// The last refusal.
  var error: JournalError
  /// How many batches the journal refused in a row.
  var batches: Int
  /// When the first of them was refused.
  var since: ContinuousClock.Instant

  /// The refusals in one line: how many, for how long, and the last error (which says, for a
  /// failure of the disk or the file system, that the journal may be intact and what to fix).
  var summary: String {
    let seconds = (ContinuousClock.now - since).components.seconds
    return "the journal refused \(batches) commit(s) in the last \(seconds) s; the last "
      + "error: \(error)"
  }
}
