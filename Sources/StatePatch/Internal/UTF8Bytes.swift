/// Byte-wise comparison of strings' UTF-8 encodings: the order and equality of canonical JSON.
enum UTF8Bytes {
  /// Whether `a` and `b` have the same UTF-8 bytes (Swift's `==` would also equate canonically
  /// equivalent strings with different bytes).
  static func equal(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    return compare(a, b) == 0
  }

  /// Negative, zero or positive as `a`'s bytes sort before, equal or after `b`'s.
  static func compare(_ a: String, _ b: String) -> Int {
    let fast = a.utf8.withContiguousStorageIfAvailable { left in
      b.utf8.withContiguousStorageIfAvailable { right in compare(left, right) }
    }
    if let result = fast ?? nil { return result }
    var left = a.utf8.makeIterator()
    var right = b.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
      }
    }
  }

  /// Negative, zero or positive as `left` sorts before, equal or after `right`.
  static func compare(
    _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
  )
    -> Int
  {
    let common = min(left.count, right.count)
    var index = 0
    while index < common {
      let x = left[index]
      let y = right[index]
      if x != y { return x < y ? -1 : 1 }
      index += 1
    }
    return left.count - right.count
  }
}
