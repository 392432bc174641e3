/// The leader's most recent deltas, bounded by count and by bytes, from which followers that
/// missed deltas catch up without a full snapshot.
package struct Backlog {
  /// The most deltas kept.
  package let maxCount: Int
  /// The most patch bytes kept (the newest delta is always kept, whatever its size).
  package let maxBytes: Int

  private var storage: [Delta] = []
  private var head = 0
  package private(set) var byteCount = 0

  package init(maxCount: Int, maxBytes: Int) {
    precondition(maxCount > 0 && maxBytes > 0, "a backlog needs room for at least one delta")
    self.maxCount = maxCount
    self.maxBytes = maxBytes
  }

  /// How many deltas are kept.
  package var count: Int { storage.count - head }

  /// The first sequence of the oldest delta kept, if any.
  package var oldestSequence: UInt64? { count > 0 ? storage[head].firstSequence : nil }

  /// Keeps `delta`, which must follow the newest one kept, dropping the oldest to stay in bounds.
  package mutating func append(_ delta: Delta) {
    if let newest = storage.last, count > 0 {
      precondition(delta.firstSequence == newest.sequence + 1, "backlog deltas must be gapless")
    }
    storage.append(delta)
    byteCount += delta.patch.count
    while count > 1 && (count > maxCount || byteCount > maxBytes) {
      byteCount -= storage[head].patch.count
      head += 1
    }
    if head > 1024 && head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }

  /// The deltas from `sequence` on, or nil when the backlog no longer reaches back that far or
  /// `sequence` falls inside a delta of several actions (which cannot apply from there).
  /// A `sequence` just past the newest delta gives an empty array.
  package func deltas(from sequence: UInt64) -> ArraySlice<Delta>? {
    guard let oldest = oldestSequence else { return nil }
    let newest = storage[storage.count - 1].sequence
    guard sequence >= oldest, sequence <= newest + 1 else { return nil }
    if sequence == newest + 1 { return storage[storage.count...] }
    // The first delta that ends at or after `sequence`: deltas are in order and gapless.
    var low = head
    var high = storage.count - 1
    while low < high {
      let middle = (low + high) / 2
      if storage[middle].sequence < sequence { low = middle + 1 } else { high = middle }
    }
    guard storage[low].firstSequence == sequence else { return nil }
    return storage[low...]
  }

  /// Forgets every delta (a new epoch starts a new history).
  package mutating func removeAll() {
    storage.removeAll()
    head = 0
    byteCount = 0
  }
}
