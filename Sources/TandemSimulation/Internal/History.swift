import TandemProtocol

/// The ground truth the invariants are checked against: for each epoch, the actions its leaders
/// committed (published), in order, and the state hash after each sequence.
struct History {
  struct Applied: Equatable {
    var mark: ActionMark
    var origin: Origin
  }

  struct Line {
    /// The action at each sequence (index = sequence - 1).
    var actions: [Applied] = []
    /// The state hash at each sequence (index = sequence; 0 is the initial state).
    var hashes: [UInt64]
    /// Where each action applied, for the duplicate check.
    var sequenceOf: [ActionMark: UInt64] = [:]
    /// The last serial applied of each process, for the order check.
    var lastSerial: [Int: UInt64] = [:]

    var sequence: UInt64 { UInt64(actions.count) }
  }

  private(set) var lines: [Epoch: Line] = [:]
  /// Every action committed in any epoch, with where.
  private(set) var everywhere: [ActionMark: [(Epoch, UInt64)]] = [:]

  /// Starts `epoch`'s history: empty, or continuing `prefix` of another epoch's up to `through`
  /// (a journal that lost its tail continues under a new epoch).
  mutating func begin(_ epoch: Epoch, initialHash: UInt64, from prefix: Epoch?, through: UInt64) {
    guard lines[epoch] == nil else { return }
    guard let prefix, let old = lines[prefix] else {
      lines[epoch] = Line(hashes: [initialHash])
      return
    }
    var line = Line(hashes: Array(old.hashes[...Int(through)]))
    for (index, applied) in old.actions.prefix(Int(through)).enumerated() {
      line.actions.append(applied)
      line.sequenceOf[applied.mark] = UInt64(index + 1)
      line.lastSerial[applied.mark.process] = applied.mark.serial
      everywhere[applied.mark, default: []].append((epoch, UInt64(index + 1)))
    }
    lines[epoch] = line
  }

  /// Records committed actions of `epoch` from `sequence` + 1 on, with the hash after each.
  /// Returns the broken invariants (a duplicate, an action out of its sender's order, a gap).
  mutating func commit(
    _ epoch: Epoch, after sequence: UInt64, _ applied: [(Applied, hash: UInt64)]
  ) -> [String] {
    var problems: [String] = []
    var line = lines[epoch]!
    if line.sequence != sequence {
      problems.append(
        "epoch \(epoch) committed from \(sequence + 1) but its history ends at \(line.sequence)")
    }
    for (entry, hash) in applied {
      let next = line.sequence + 1
      if let earlier = line.sequenceOf[entry.mark] {
        problems.append(
          "\(entry.mark) (\(entry.origin)) applied twice: at \(earlier) and at \(next)")
      }
      if let last = line.lastSerial[entry.mark.process], last >= entry.mark.serial {
        problems.append(
          "\(entry.mark) applied at \(next) after p\(entry.mark.process).\(last): out of order")
      }
      line.actions.append(entry)
      line.hashes.append(hash)
      line.sequenceOf[entry.mark] = next
      line.lastSerial[entry.mark.process] = entry.mark.serial
      everywhere[entry.mark, default: []].append((epoch, next))
    }
    lines[epoch] = line
    return problems
  }

  func line(_ epoch: Epoch) -> Line? { lines[epoch] }

  func wasApplied(_ mark: ActionMark) -> Bool { everywhere[mark] != nil }
}
