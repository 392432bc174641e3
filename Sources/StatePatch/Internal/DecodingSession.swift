#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One decoding run: turns JSON into typed values, counting the nodes it decodes and the old
/// subtrees a patched decode reuses.
///
/// Its hot stored properties are `@exclusivity(unchecked)`: one thread uses an instance, each
/// access is a short read or append that never overlaps another, and the runtime's dynamic
/// exclusivity checks cost a tenth of a small diff.
final class DecodingSession {
  @exclusivity(unchecked) var nodesDecoded = 0
  @exclusivity(unchecked) var subtreesReused = 0
  /// Whether a `URL` or `Decimal` stops the run (see ``JSONCoderForms``).
  let refusesJSONCoderForms: Bool
  /// Whether the run met a `URL` or `Decimal` it refuses.
  var metJSONCoderForm = false

  init(refusesJSONCoderForms: Bool = false) {
    self.refusesJSONCoderForms = refusesJSONCoderForms
  }

  /// The scalar `T` of `value`; `T` must be one of the types ``scalar(_:from:at:)`` knows.
  func decodeScalar<T>(
    _ type: T.Type, from value: JSONValue, at codingPath: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    nodesDecoded += 1
    return try Self.scalar(type, from: value, at: codingPath())!
  }

  /// The typed value of `value`, decoding everything beneath it.
  func decode<T: Decodable>(
    _ type: T.Type, from value: JSONValue, at codingPath: [any CodingKey]
  )
    throws -> T
  {
    nodesDecoded += 1
    if let scalar = try Self.scalar(type, from: value, at: codingPath) { return scalar }
    if refusesJSONCoderForms, JSONCoderForms.differ(for: T.self) {
      metJSONCoderForm = true
      throw StateDecodingError(
        .decodeFailed(JSONCoderForms.Refused(type: T.self)), at: JSONPointer(codingPath: codingPath)
      )
    }
    do {
      return try T(from: ValueDecoder(value: value, session: self, codingPath: codingPath))
    } catch let error as StateDecodingError {
      throw error
    } catch {
      throw StateDecodingError(.decodeFailed(error), at: JSONPointer(codingPath: codingPath))
    }
  }

  /// The typed value of the new document `value`, given the `old` typed value at the same path
  /// and what the patch `touch`ed beneath it: untouched subtrees come from `old` as they are.
  ///
  /// The old value is taken out of `old`, so a collection that nothing else holds is changed
  /// in place instead of being copied.
  func patched<T: Decodable>(
    _ type: T.Type, old: OldValue, from value: JSONValue, touch: Touch?,
    at codingPath: [any CodingKey]
  ) throws -> T {
    guard let touch else {
      if let reused = old.take(as: T.self) {
        subtreesReused += 1
        return reused
      }
      return try decode(type, from: value, at: codingPath)
    }
    if touch.fresh { return try decode(type, from: value, at: codingPath) }
    let traits = TypeTraits.of(T.self)
    if let fast = traits.fastPatchable {
      return try patchedFast(fast, old: old, from: value, touch: touch, at: codingPath) as! T
    }
    guard let encodable = traits.encodable,
      let box = Self.record(taking: old, as: encodable, at: codingPath)
    else {
      return try decode(type, from: value, at: codingPath)
    }
    nodesDecoded += 1
    let decoder = PatchingDecoder(
      box: box, value: value, touch: touch, session: self, codingPath: codingPath)
    do {
      return try T(from: decoder)
    } catch let error as StateDecodingError {
      throw error
    } catch {
      throw StateDecodingError(.decodeFailed(error), at: JSONPointer(codingPath: codingPath))
    }
  }

  /// The members of the old value (if it is an `E`, the type being decoded), recorded one level
  /// deep; the value itself is released when this returns, so the box holds the only references
  /// to its members. Taking it as its own type, not as `any Encodable`, spares a conformance
  /// lookup per node.
  private static func record<E: Encodable>(
    taking old: OldValue, as _: E.Type, at codingPath: [any CodingKey]
  ) -> RecordBox? {
    guard let value = old.take(as: E.self) else { return nil }
    return try? EncodingSession(deep: false).record(value, at: codingPath, deep: false)
  }

  private func patchedFast<F: FastPatchable>(
    _ type: F.Type, old: OldValue, from value: JSONValue, touch: Touch,
    at codingPath: [any CodingKey]
  ) throws -> F {
    try F.patched(old: old, from: value, touch: touch, in: self, at: codingPath)
  }

  /// The scalar `T` of `value` (and `Data` from base64), or nil when `T` is not a scalar.
  static func scalar<T>(
    _ type: T.Type, from value: JSONValue, at codingPath: @autoclosure () -> [any CodingKey]
  ) throws -> T? {
    func mismatch(_ expected: String) -> StateDecodingError {
      StateDecodingError(
        .typeMismatch(expected: expected, found: value), at: JSONPointer(codingPath: codingPath()))
    }
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
      let result: I? =
        switch value {
        case .int(let x): I(exactly: x)
        case .uint(let x): I(exactly: x)
        case .double(let x): I(exactly: x)
        default: throw mismatch("an integer")
        }
      guard let result else {
        throw StateDecodingError(
          .numberOutOfRange(value, type: "\(I.self)"), at: JSONPointer(codingPath: codingPath()))
      }
      return result
    }
    func double() throws -> Double {
      switch value {
      case .double(let x): return x
      case .int(let x): if let d = Double(exactly: x) { return d }
      case .uint(let x): if let d = Double(exactly: x) { return d }
      default: throw mismatch("a number")
      }
      throw StateDecodingError(
        .numberOutOfRange(value, type: "Double"), at: JSONPointer(codingPath: codingPath()))
    }
    if type == String.self {
      guard case .string(let string) = value else { throw mismatch("a string") }
      return (string as! T)
    }
    if type == Int.self { return (try integer(Int.self) as! T) }
    if type == Bool.self {
      guard case .bool(let bool) = value else { throw mismatch("a boolean") }
      return (bool as! T)
    }
    if type == Double.self { return (try double() as! T) }
    if type == Int64.self { return (try integer(Int64.self) as! T) }
    if type == Int32.self { return (try integer(Int32.self) as! T) }
    if type == Int16.self { return (try integer(Int16.self) as! T) }
    if type == Int8.self { return (try integer(Int8.self) as! T) }
    if type == UInt.self { return (try integer(UInt.self) as! T) }
    if type == UInt64.self { return (try integer(UInt64.self) as! T) }
    if type == UInt32.self { return (try integer(UInt32.self) as! T) }
    if type == UInt16.self { return (try integer(UInt16.self) as! T) }
    if type == UInt8.self { return (try integer(UInt8.self) as! T) }
    if type == Float.self {
      let wide = try double()
      guard let float = Float(exactly: wide) ?? Float?(Float(wide)), float.isFinite else {
        throw StateDecodingError(
          .numberOutOfRange(value, type: "Float"), at: JSONPointer(codingPath: codingPath()))
      }
      return (float as! T)
    }
    if type == Data.self {
      guard case .string(let string) = value else { throw mismatch("a base64 string") }
      guard let data = Data(base64Encoded: string) else {
        throw StateDecodingError(.invalidBase64, at: JSONPointer(codingPath: codingPath()))
      }
      return (data as! T)
    }
    return nil
  }
}

/// An old typed value handed down a patched decode. Taking it leaves nothing behind (it is
/// moved out of the record it came from), so the taker may hold the only reference to a
/// collection and change it in place. Every step happens inside ``take(as:)``, so no caller's
/// local keeps a second reference alive.
///
/// Its source is `@exclusivity(unchecked)`, as the sessions' hot properties are: one thread
/// uses an instance, and each access is a short read or write that never overlaps another.
final class OldValue {
  private enum Source {
    case taken
    case value(Any)
    case member(RecordBox, Int)
  }

  @exclusivity(unchecked) private var source: Source

  /// A value given directly (nil for none).
  init(_ value: Any?) {
    source = value.map { .value($0) } ?? .taken
  }

  /// The kept value of entry `index` of `box`, taken out of the box when it is taken from here.
  init(box: RecordBox, index: Int) {
    source = .member(box, index)
  }

  /// The value as a `T`, removed from here; nil if there is none or it is not a `T`.
  func take<T>(as type: T.Type) -> T? {
    switch source {
    case .taken:
      return nil
    case .value(let value):
      source = .taken
      return value as? T
    case .member(let box, let index):
      source = .taken
      return box.take(at: index, as: type)
    }
  }
}
