/// One diff run: walks the old and the new typed value together, skipping every subtree that
/// compares equal, and collects the RFC 6902 operations that turn the canonical JSON of the old
/// value into that of the new one.
///
/// Its hot stored properties are `@exclusivity(unchecked)`: one thread uses an instance, each
/// access is a short read or append that never overlaps another, and the runtime's dynamic
/// exclusivity checks cost a tenth of a small diff.
final class DiffContext {
  /// Encodes the values that the patch carries (and counts their nodes).
  let session = EncodingSession(deep: true)
  /// Records typed values one level deep, to compare them member by member.
  let shallow = EncodingSession(deep: false)
  /// Typed values checked for equality.
  @exclusivity(unchecked) var nodesCompared = 0
  /// The operations so far, in the order they must be applied.
  @exclusivity(unchecked) var operations: [PatchOperation] = []
  /// The reference tokens of the value being compared.
  @exclusivity(unchecked) var path: [String]
  /// What the previous diff recorded of its new value: reused as the record of this diff's
  /// old value when the two have the same bits.
  var previousRecord: RecordedValue?
  /// What this diff recorded of its new value at the root, for the next diff.
  var lastRecord: RecordedValue?

  init() {
    path = []
    path.reserveCapacity(8)
  }

  var codingPath: [any CodingKey] { path.map { PathKey(stringValue: $0) } }
  private var pointer: JSONPointer { JSONPointer(tokens: path) }

  // MARK: Operations at the current path

  func replace(with value: JSONValue) {
    operations.append(.replace(path: pointer, value: value))
  }

  func replace<T: Encodable>(withEncoding value: T) throws {
    replace(with: try session.encode(value, at: codingPath))
  }

  /// Runs `body` with `token` appended to the path.
  func at<R>(_ token: String, _ body: () throws -> R) rethrows -> R {
    path.append(token)
    defer { path.removeLast() }
    return try body()
  }

  func add(_ value: JSONValue, at token: String) {
    at(token) { operations.append(.add(path: pointer, value: value)) }
  }

  func remove(at token: String) {
    at(token) { operations.append(.remove(path: pointer)) }
  }

  // MARK: Comparing

  /// Compares two typed values at the current path and records what changed.
  ///
  /// Values with the same bits are skipped at once; arrays, dictionaries and optionals take
  /// their fast paths; other `Equatable` values are skipped when `==` (unless `compare` is false
  /// because the caller already knows they differ, or because `==` would cost the whole subtree
  /// as at the root); the rest are recorded one level deep and compared member by member.
  func diff<Old: Encodable, New: Encodable>(old: Old, new: New, compare: Bool = true) throws {
    guard Old.self == New.self else {
      try diffOpened(old: old as any Encodable, new: new as any Encodable)
      return
    }
    try diffSameType(old: old, new: new as! Old, compare: compare)
  }

  private func diffOpened(old: any Encodable, new: any Encodable) throws {
    guard type(of: old) == type(of: new) else {
      try replace(withEncoding: new)
      return
    }
    try diffOpened(old: old, new: new as Any)
  }

  private func diffOpened<T: Encodable>(old: T, new: Any) throws {
    try diffSameType(old: old, new: new as! T, compare: true)
  }

  private func diffSameType<T: Encodable>(old: T, new: T, compare: Bool) throws {
    let traits = TypeTraits.of(T.self)
    if let fast = traits.fastDiffable {
      try fast.diff(old: old, new: new, in: self)
      return
    }
    nodesCompared += 1
    if identical(old, new) { return }
    if compare, let equatable = traits.equatable, equalValues(equatable, old, new) { return }
    if traits.unordered != nil {
      try replace(withEncoding: new)
      return
    }
    let codingPath = self.codingPath
    let atRoot = path.isEmpty
    let reused = atRoot ? previousRecord?.box(ifSameBitsAs: old) : nil
    let oldBox = try reused ?? shallow.record(old, at: codingPath, deep: false)
    let newBox = try shallow.record(new, at: codingPath, deep: false)
    if atRoot { lastRecord = RecordedValue(new, box: newBox) }
    try diff(oldBox, newBox)
  }

  /// Compares two recorded entries at the current path.
  func diff(_ old: RecordedEntry, _ new: RecordedEntry) throws {
    switch (old, new) {
    case (.json(let a), .json(let b)):
      nodesCompared += 1
      if a != b { replace(with: b) }
    case (.value(let a), .value(let b)):
      if identical(a, b) {
        // The same type and the same bits (or the same box): a member that did not change.
        nodesCompared += 1
        return
      }
      try diffOpened(old: a, new: b)
    case (.container(let a), .container(let b)):
      try diff(a, b)
    default:
      try replaceIfDifferent(old, new)
    }
  }

  /// Compares two recorded containers at the current path.
  func diff(_ old: RecordBox, _ new: RecordBox) throws {
    switch (old.shape, new.shape) {
    case (.single, .single): try diff(old.entries[0], new.entries[0])
    case (.keyed, .keyed): try diffKeyed(old, new)
    case (.unkeyed, .unkeyed): try diffUnkeyed(old, new)
    case (.empty, .empty): return
    default: try replaceIfDifferent(.container(old), .container(new))
    }
  }

  private func replaceIfDifferent(_ old: RecordedEntry, _ new: RecordedEntry) throws {
    nodesCompared += 1
    let oldJSON = try session.json(of: old, at: codingPath)
    let newJSON = try session.json(of: new, at: codingPath)
    if oldJSON != newJSON { replace(with: newJSON) }
  }

  /// Objects member by member; when no member is shared (an enum changing case), one replace.
  private func diffKeyed(_ old: RecordBox, _ new: RecordBox) throws {
    if old.keys == new.keys, Self.areUnique(new.keys) {
      // The usual case, one struct type written twice: members pair up by position.
      for (index, key) in new.keys.enumerated() {
        try at(key) { try diff(old.entries[index], new.entries[index]) }
      }
      return
    }
    let oldMembers = old.sortedMembers()
    let newMembers = new.sortedMembers()
    var (i, j) = (0, 0)
    var plan: [(key: String, old: RecordedEntry?, new: RecordedEntry?)] = []
    var shared = 0
    while i < oldMembers.count || j < newMembers.count {
      if i < oldMembers.count, j < newMembers.count, oldMembers[i].key == newMembers[j].key {
        plan.append((newMembers[j].key, oldMembers[i].entry, newMembers[j].entry))
        shared += 1
        i += 1
        j += 1
      } else if j == newMembers.count
        || (i < oldMembers.count && JSONObject.precedes(oldMembers[i].key, newMembers[j].key))
      {
        plan.append((oldMembers[i].key, oldMembers[i].entry, nil))
        i += 1
      } else {
        plan.append((newMembers[j].key, nil, newMembers[j].entry))
        j += 1
      }
    }
    if shared == 0, !oldMembers.isEmpty, !newMembers.isEmpty {
      replace(with: try session.json(of: new, at: codingPath))
      return
    }
    for step in plan {
      switch (step.old, step.new) {
      case (let a?, let b?): try at(step.key) { try diff(a, b) }
      case (_?, nil): remove(at: step.key)
      case (nil, let b?):
        let value = try at(step.key) { try session.json(of: b, at: codingPath) }
        add(value, at: step.key)
      case (nil, nil): break
      }
    }
  }

  /// Unkeyed containers of values that are not `Equatable`: position by position, then the tail.
  private func diffUnkeyed(_ old: RecordBox, _ new: RecordBox) throws {
    let shared = min(old.entries.count, new.entries.count)
    for index in 0..<shared {
      try at(String(index)) { try diff(old.entries[index], new.entries[index]) }
    }
    for index in (shared..<old.entries.count).reversed() {
      remove(at: String(index))
    }
    for index in shared..<new.entries.count {
      let value = try at(String(index)) { try session.json(of: new.entries[index], at: codingPath) }
      add(value, at: String(index))
    }
  }
}

extension DiffContext {
  /// Whether no key appears twice (a quadratic scan for the few keys of a struct).
  static func areUnique(_ keys: [String]) -> Bool {
    if keys.count > 16 { return Set(keys).count == keys.count }
    for i in keys.indices {
      for j in keys.indices where j > i && keys[i] == keys[j] { return false }
    }
    return true
  }
}
