#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compares elements of two arrays: by their bits first (copies of one array share every
/// unchanged element's bits), then with `==`; runs of equal elements are scanned in blocks, and
/// a block whose bits differ is halved until the first (or last) difference is found.
struct ElementScan<Element: Equatable> {
  let old: UnsafeBufferPointer<Element>
  let new: UnsafeBufferPointer<Element>
  /// Elements compared so far.
  var compared = 0
  private let stride = MemoryLayout<Element>.stride
  private static var block: Int { 64 }

  init(old: UnsafeBufferPointer<Element>, new: UnsafeBufferPointer<Element>) {
    self.old = old
    self.new = new
  }

  private func sameBits(_ i: Int, _ j: Int, count: Int) -> Bool {
    if stride == 0 || count == 0 { return true }
    return memcmp(old.baseAddress! + i, new.baseAddress! + j, count * stride) == 0
  }

  /// Whether `old[i] == new[j]`.
  mutating func equal(_ i: Int, _ j: Int) -> Bool {
    compared += 1
    return sameBits(i, j, count: 1) || old[i] == new[j]
  }

  /// How many elements are equal going forward from `old[i]` and `new[j]`, at most `limit`.
  mutating func forwardRun(_ i: Int, _ j: Int, limit: Int) -> Int {
    var run = 0
    while run < limit {
      let chunk = min(Self.block, limit - run)
      let same = sameBitsForward(i + run, j + run, count: chunk)
      run += same
      compared += same
      if same == chunk { continue }
      compared += 1
      guard old[i + run] == new[j + run] else { return run }
      run += 1
    }
    return run
  }

  /// How many elements are equal going backward from `old[oldEnd - 1]` and `new[newEnd - 1]`,
  /// at most `limit`.
  mutating func backwardRun(_ oldEnd: Int, _ newEnd: Int, limit: Int) -> Int {
    var run = 0
    while run < limit {
      let chunk = min(Self.block, limit - run)
      let same = sameBitsBackward(oldEnd - run, newEnd - run, count: chunk)
      run += same
      compared += same
      if same == chunk { continue }
      compared += 1
      guard old[oldEnd - run - 1] == new[newEnd - run - 1] else { return run }
      run += 1
    }
    return run
  }

  /// How many of the `count` elements from `old[i]` and `new[j]` on have the same bits before
  /// the first that does not: one comparison of the whole run, then halving the part that
  /// holds a difference.
  private func sameBitsForward(_ i: Int, _ j: Int, count: Int) -> Int {
    if sameBits(i, j, count: count) { return count }
    var (same, width) = (0, count)  // The first difference lies in same..<(same + width).
    while width > 1 {
      let half = width / 2
      if sameBits(i + same, j + same, count: half) {
        same += half
        width -= half
      } else {
        width = half
      }
    }
    return same
  }

  /// How many of the `count` elements before `old[oldEnd]` and `new[newEnd]` have the same
  /// bits, counting back from the end to the first that does not.
  private func sameBitsBackward(_ oldEnd: Int, _ newEnd: Int, count: Int) -> Int {
    if sameBits(oldEnd - count, newEnd - count, count: count) { return count }
    var (same, width) = (0, count)  // The last difference is `same..<(same + width)` from the end.
    while width > 1 {
      let half = width / 2
      if sameBits(oldEnd - same - half, newEnd - same - half, count: half) {
        same += half
        width -= half
      } else {
        width = half
      }
    }
    return same
  }
}

extension DiffContext {
  /// How far ahead the array diff looks for an insertion or a removal before it treats a
  /// mismatch as a changed element.
  static var shiftWindow: Int { 8 }

  /// Arrays of `Equatable` elements: the common prefix and suffix are skipped; in between,
  /// short runs of removed or inserted elements are found by looking a few elements ahead,
  /// other mismatches are changed elements diffed in place, and the tails are removed or added.
  func diffArray<Element: Encodable & Equatable>(_ old: [Element], _ new: [Element]) throws {
    nodesCompared += 1
    if old.count == new.count, identical(old, new) { return }
    try old.withUnsafeBufferPointer { oldBuffer in
      try new.withUnsafeBufferPointer { newBuffer in
        var scan = ElementScan(old: oldBuffer, new: newBuffer)
        defer { nodesCompared += scan.compared }
        try diffElements(&scan)
      }
    }
  }

  private func diffElements<Element: Encodable & Equatable>(
    _ scan: inout ElementScan<Element>
  )
    throws
  {
    let (oldCount, newCount) = (scan.old.count, scan.new.count)
    let prefix = scan.forwardRun(0, 0, limit: min(oldCount, newCount))
    let suffix = scan.backwardRun(
      oldCount, newCount, limit: min(oldCount, newCount) - prefix)
    let (oldEnd, newEnd) = (oldCount - suffix, newCount - suffix)
    var (i, j) = (prefix, prefix)
    while i < oldEnd, j < newEnd {
      let run = scan.forwardRun(i, j, limit: min(oldEnd - i, newEnd - j))
      i += run
      j += run
      if i == oldEnd || j == newEnd { break }
      let removed = shift(&scan, from: i, to: j, oldEnd: oldEnd, newEnd: newEnd, removing: true)
      let inserted = shift(&scan, from: i, to: j, oldEnd: oldEnd, newEnd: newEnd, removing: false)
      if let removed, removed <= inserted ?? .max {
        for _ in 0..<removed { remove(at: String(j)) }
        i += removed
      } else if let inserted {
        for _ in 0..<inserted {
          add(try encodeElement(scan.new[j], at: j), at: String(j))
          j += 1
        }
      } else {
        try at(String(j)) { try diff(old: scan.old[i], new: scan.new[j], compare: false) }
        i += 1
        j += 1
      }
    }
    for index in (j..<(j + oldEnd - i)).reversed() {
      remove(at: String(index))
    }
    while j < newEnd {
      add(try encodeElement(scan.new[j], at: j), at: String(j))
      j += 1
    }
  }

  /// How many elements removed from `old` at `i` (or inserted into `new` at `j`) make the two
  /// line up again for at least two elements (or to an end): up to ``shiftWindow`` while the
  /// remaining lengths differ, else only one (a removal paired with an insertion further on).
  private func shift<Element: Equatable>(
    _ scan: inout ElementScan<Element>, from i: Int, to j: Int, oldEnd: Int, newEnd: Int,
    removing: Bool
  ) -> Int? {
    let window = oldEnd - i == newEnd - j ? 1 : Self.shiftWindow
    for k in 1...window {
      let (a, b) = removing ? (i + k, j) : (i, j + k)
      guard a < oldEnd, b < newEnd else { return nil }
      if scan.equal(a, b), a + 1 == oldEnd || b + 1 == newEnd || scan.equal(a + 1, b + 1) {
        return k
      }
    }
    return nil
  }

  private func encodeElement<Element: Encodable>(
    _ element: Element, at index: Int
  ) throws
    -> JSONValue
  {
    try at(String(index)) { try session.encode(element, at: codingPath) }
  }
}
