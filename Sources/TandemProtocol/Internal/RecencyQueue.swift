/// The keys of a table in the order they were last active, oldest first, so that the table can
/// forget its oldest keys without scanning them all.
///
/// The table appends a mark (key, stamp) whenever a key's stamp changes (the sequence or the
/// time of its last activity). A mark is never updated: one whose key has since been touched
/// again, or removed, is **stale**, and the table tells the current marks from the stale ones
/// with an `isCurrent` test (the key is there, with that stamp). Stale marks are dropped as
/// they reach the front, and all at once when they outnumber the table's keys, so the queue
/// holds at most about twice as many marks as the table has keys, and each operation costs
/// amortized O(1).
///
/// ```swift
/// var recent = RecencyQueue<String, UInt64>()
/// table[key] = now
/// recent.append(key, at: now, tableCount: table.count) { table[$0] == $1 }
/// while let oldest = recent.oldest(isCurrent: { table[$0] == $1 }), oldest.stamp < cutoff {
///   table[oldest.key] = nil
///   recent.removeOldest()
/// }
/// ```
///
/// Marks appended in the order of their stamps keep the queue in that order; a mark appended
/// with an older stamp than the last (a stamp set back) reaches the front only after the marks
/// before it.
package struct RecencyQueue<Key: Hashable & Sendable, Stamp: Equatable & Sendable>: Sendable {
  private struct Mark: Sendable {
    var key: Key
    var stamp: Stamp
  }

  private var marks: [Mark] = []
  /// The index of the oldest mark not yet removed.
  private var start = 0

  package init() {}

  /// Notes that `key` was touched at `stamp`, the newest activity in the table. `tableCount`
  /// (how many keys the table holds) and `isCurrent` let the queue drop stale marks when they
  /// outnumber the table's keys.
  package mutating func append(
    _ key: Key, at stamp: Stamp, tableCount: Int, isCurrent: (Key, Stamp) -> Bool
  ) {
    marks.append(Mark(key: key, stamp: stamp))
    if marks.count - start > 2 * tableCount + 16 {
      marks = marks[start...].filter { isCurrent($0.key, $0.stamp) }
      start = 0
    }
  }

  /// The oldest current mark, after dropping the stale marks before it; nil when there is none.
  package mutating func oldest(isCurrent: (Key, Stamp) -> Bool) -> (key: Key, stamp: Stamp)? {
    while start < marks.count {
      let mark = marks[start]
      if isCurrent(mark.key, mark.stamp) { return (mark.key, mark.stamp) }
      removeOldest()
    }
    return nil
  }

  /// Removes the oldest mark (the one ``oldest(isCurrent:)`` returned, once the table has
  /// forgotten its key or touched it again).
  package mutating func removeOldest() {
    guard start < marks.count else { return }
    start += 1
    if start == marks.count {
      marks.removeAll(keepingCapacity: true)
      start = 0
    } else if start >= 64, start * 2 >= marks.count {
      marks.removeFirst(start)
      start = 0
    }
  }

  /// Removes every mark.
  package mutating func removeAll() {
    marks.removeAll()
    start = 0
  }
}
