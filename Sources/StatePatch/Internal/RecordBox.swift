/// One member of a recorded container: JSON already built, a typed value not yet encoded (when
/// recording one level only), or a nested container.
enum RecordedEntry {
  /// A canonical JSON value (a scalar, or anything in deep mode).
  case json(JSONValue)
  /// A typed value the shallow recorder kept instead of encoding it.
  case value(any Encodable)
  /// A nested container (or a super encoder) filled by the same `encode(to:)` call.
  case container(RecordBox)
}

/// What one `encode(to:)` call wrote: a keyed, unkeyed or single-value container, or nothing.
///
/// Keyed members are kept in the order written; a key written twice keeps its last entry when
/// the box becomes JSON.
///
/// Its hot stored properties are `@exclusivity(unchecked)`: one thread uses an instance, each
/// access is a short read or append that never overlaps another, and the runtime's dynamic
/// exclusivity checks cost a tenth of a small diff.
final class RecordBox {
  /// The kind of container the value asked for.
  enum Shape {
    case empty
    case keyed
    case unkeyed
    case single
  }

  @exclusivity(unchecked) private(set) var shape: Shape = .empty
  /// Member names of a keyed container, parallel to `entries`.
  @exclusivity(unchecked) var keys: [String] = []
  /// Members of a keyed container, elements of an unkeyed one, or the one single value.
  @exclusivity(unchecked) var entries: [RecordedEntry] = []

  /// Fixes the shape on first use; asking again for the same kind continues the container.
  func become(_ newShape: Shape) {
    if shape == newShape { return }
    precondition(
      shape == .empty,
      "an encode(to:) asked for a \(newShape) container after a \(shape) one at the same level")
    shape = newShape
    if newShape == .keyed {
      keys.reserveCapacity(8)
      entries.reserveCapacity(8)
    }
  }

  /// Appends a keyed member.
  func put(_ key: String, _ entry: RecordedEntry) {
    keys.append(key)
    entries.append(entry)
  }

  /// The entry of `key` (the last one written), or nil.
  func entry(forKey key: String) -> RecordedEntry? {
    var index = keys.count - 1
    while index >= 0 {
      if keys[index] == key { return entries[index] }
      index -= 1
    }
    return nil
  }

  /// The index of the last entry written for `key`, if it is a kept typed value.
  func valueIndex(forKey key: String) -> Int? {
    var index = keys.count - 1
    while index >= 0, keys[index] != key { index -= 1 }
    guard index >= 0, case .value = entries[index] else { return nil }
    return index
  }

  /// The kept typed value of entry `index` as a `T`, leaving `null` in its place so that the
  /// caller holds the only reference the box had.
  func take<T>(at index: Int, as type: T.Type) -> T? {
    guard case .value(let value) = entries[index] else { return nil }
    entries[index] = .json(.null)
    return value as? T
  }

  /// The keyed members with duplicates resolved (last write wins), sorted in canonical order.
  func sortedMembers() -> [(key: String, entry: RecordedEntry)] {
    if keys.indices.dropFirst().allSatisfy({ JSONObject.precedes(keys[$0 - 1], keys[$0]) }) {
      // Already in canonical order, each key once (a type whose keys are declared sorted).
      return Array(zip(keys, entries).lazy.map { (key: $0, entry: $1) })
    }
    var order = Array(keys.indices)
    order.sort { a, b in
      if keys[a] == keys[b] { return a < b }
      return JSONObject.precedes(keys[a], keys[b])
    }
    var result: [(key: String, entry: RecordedEntry)] = []
    result.reserveCapacity(order.count)
    for index in order {
      if let last = result.last, last.key == keys[index] {
        result[result.count - 1] = (keys[index], entries[index])
      } else {
        result.append((keys[index], entries[index]))
      }
    }
    return result
  }
}

/// A value recorded one level deep, kept with its record so that a later diff whose old value
/// has the same bits can reuse the record instead of recording that value again.
///
/// Immutable once made (the differ only reads records), so sharing it between copies of a
/// ``StateDiffer`` on several threads is safe.
final class RecordedValue: @unchecked Sendable {
  private let value: Any
  private let box: RecordBox

  init<T>(_ value: T, box: RecordBox) {
    self.value = value
    self.box = box
  }

  /// The record, if `other` is of the recorded value's type and has the same bits (which the
  /// differ takes to mean the same encoding, as when it skips identical subtrees).
  func box<T>(ifSameBitsAs other: T) -> RecordBox? {
    guard let value = value as? T, identical(value, other) else { return nil }
    return box
  }
}

/// A coding key for recorded paths: array positions and member names alike.
///
/// Three words, so that it fits an existential's inline buffer: a coding path of these costs
/// one allocation (the array), not one per key.
struct PathKey: CodingKey {
  let stringValue: String
  /// The array position, or `Int.min` for a member name.
  private let index: Int

  var intValue: Int? { index == .min ? nil : index }

  init(stringValue: String) {
    self.stringValue = stringValue
    self.index = .min
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.index = intValue
  }

  /// The key a super encoder is stored under, as Foundation's coders name it.
  static let superKey = PathKey(stringValue: "super")
}

extension JSONPointer {
  /// The pointer naming the value at `codingPath`.
  init(codingPath: [any CodingKey]) {
    self.init(tokens: codingPath.map(\.stringValue))
  }
}
