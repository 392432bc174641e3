import TandemProtocol

/// The leader's journal as the simulation keeps it: what each commit made durable, and how much
/// of it survives a crash of the machine.
///
/// It follows the SQLite journal's rules: a commit is all or nothing; with `full` durability
/// every commit survives anything; with `normal` durability the commits since the last sync
/// may be lost when the machine crashes, and the journal then continues under a new epoch
/// (``JournalSession``'s rule: a session with `normal` durability that did not close before
/// the machine restarted may have lost its last commits).
struct SimulatedJournal {
  struct Commit {
    var sequence: UInt64
    var deltaCount: Int
    var state: TallyState
    var ledger: ClientLedger
  }

  var epoch: Epoch
  let fullDurability: Bool
  /// Every delta appended, in order.
  private(set) var deltas: [Delta] = []
  /// The commits that a crash of the machine may still lose (the last is the newest state);
  /// the first is durable.
  private(set) var commits: [Commit]

  init(epoch: Epoch, fullDurability: Bool, initial: TallyState, ledger: ClientLedger) {
    self.epoch = epoch
    self.fullDurability = fullDurability
    commits = [Commit(sequence: 0, deltaCount: 0, state: initial, ledger: ledger)]
  }

  var newest: Commit { commits[commits.count - 1] }

  mutating func append(_ batch: [Delta], sequence: UInt64, state: TallyState, ledger: ClientLedger)
  {
    deltas += batch
    let commit = Commit(
      sequence: sequence, deltaCount: deltas.count, state: state, ledger: ledger)
    if fullDurability {
      commits = [commit]
    } else {
      commits.append(commit)
    }
  }

  /// A checkpoint: what is committed so far survives a crash of the machine.
  mutating func sync() {
    commits = [newest]
  }

  /// The machine crashed: with `normal` durability the journal keeps the commits up to a
  /// point `random` picks and continues under a new epoch; returns the sequences lost (nil when
  /// the epoch continues).
  mutating func machineCrashed(
    random: inout SimulationRandom
  ) -> (
    lost: UInt64, previous: Epoch
  )? {
    guard !fullDurability else { return nil }
    let kept = random.int(0...(commits.count - 1))
    let lost = newest.sequence - commits[kept].sequence
    commits = [commits[kept]]
    deltas.removeSubrange(commits[0].deltaCount...)
    let previous = epoch
    epoch = Epoch(rawValue: random.next())
    return (lost, previous)
  }

  /// The deltas from `sequence` to the newest within `maximumBytes` of patches, or nil when the
  /// journal does not reach back that far or they are more bytes.
  func window(from sequence: UInt64, maximumBytes: Int) -> [Delta]? {
    guard let index = deltas.firstIndex(where: { $0.sequence >= sequence }) else {
      return sequence == newest.sequence + 1 ? [] : nil
    }
    guard deltas[index].firstSequence == sequence else { return nil }
    var bytes = 0
    for delta in deltas[index...] {
      bytes += delta.patch.count
      if bytes > maximumBytes { return nil }
    }
    return Array(deltas[index...])
  }
}

/// The error a simulated journal refuses a commit with.
struct SimulatedCommitFailure: Error, CustomStringConvertible {
  var description: String { "disk I/O error (simulated)" }
}
