#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Types the differ compares with a specialised walk instead of recording their containers:
/// arrays and `String`-keyed dictionaries of `Equatable` values, and optionals.
protocol FastDiffable {
  /// Records in `context` what changed from `old` to `new`, two values of this type.
  static func diff<T>(old: T, new: T, in context: DiffContext) throws
}

extension Array: FastDiffable where Element: Encodable & Equatable {
  static func diff<T>(old: T, new: T, in context: DiffContext) throws {
    try context.diffArray(old as! Self, new as! Self)
  }
}

extension Dictionary: FastDiffable where Key == String, Value: Encodable & Equatable {
  static func diff<T>(old: T, new: T, in context: DiffContext) throws {
    try context.diffDictionary(old as! Self, new as! Self)
  }
}

extension Optional: FastDiffable where Wrapped: Encodable {
  static func diff<T>(old: T, new: T, in context: DiffContext) throws {
    switch (old as! Self, new as! Self) {
    case (nil, nil):
      context.nodesCompared += 1
    case (let a?, let b?):
      try context.diff(old: a, new: b)
    case (_, let new):
      context.nodesCompared += 1
      try context.replace(withEncoding: new)
    }
  }
}

/// Whether two values have the same bits: for copy-on-write collections, the same storage.
/// Same bits always encode the same way, so the differ may skip them without `==`.
func identical<T>(_ a: T, _ b: T) -> Bool {
  withUnsafeBytes(of: a) { a in
    withUnsafeBytes(of: b) { b in
      a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }
  }
}

extension DiffContext {
  /// `String`-keyed dictionaries key by key, in canonical key order.
  func diffDictionary<Value: Encodable & Equatable>(
    _ old: [String: Value], _ new: [String: Value]
  ) throws {
    nodesCompared += 1
    if identical(old, new) { return }
    var changed: [String] = []
    var added = 0
    for (key, value) in new {
      nodesCompared += 1
      if let previous = old[key] {
        if previous != value { changed.append(key) }
      } else {
        changed.append(key)
        added += 1
      }
    }
    if old.count + added != new.count {
      for key in old.keys where new[key] == nil { changed.append(key) }
    }
    changed.sort(by: JSONObject.precedes)
    for key in changed {
      switch (old[key], new[key]) {
      case (let a?, let b?): try at(key) { try diff(old: a, new: b, compare: false) }
      case (nil, let b?): add(try at(key) { try session.encode(b, at: codingPath) }, at: key)
      default: remove(at: key)
      }
    }
  }
}
