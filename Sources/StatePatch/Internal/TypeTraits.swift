import Synchronization

/// What the encoder, the differ and the patched decode ask about the type of every value they
/// meet: is it one of the collections with a fast diff (or fast patched decode), is it
/// `Equatable` or `Encodable`, is its own encoding in hash order?
///
/// Answering with dynamic casts to protocol existentials costs a conformance lookup per cast and
/// value; the answers depend only on the type, so they are found once per type and process and
/// kept in a table.
struct TypeTraits: @unchecked Sendable {  // Metatypes only: immutable, safe to share.
  /// The type's fast diff, for arrays, `String`-keyed dictionaries and optionals.
  let fastDiffable: (any FastDiffable.Type)?
  /// The type's fast patched decode, for arrays, `String`-keyed dictionaries and optionals.
  let fastPatchable: (any FastPatchable.Type)?
  /// The type's `Equatable` conformance.
  let equatable: (any Equatable.Type)?
  /// The type's `Encodable` conformance.
  let encodable: (any Encodable.Type)?
  /// The type's canonical encoding, for collections whose own encoding is in hash order.
  let unordered: (any CanonicalUnordered.Type)?

  private static let table = Mutex<[ObjectIdentifier: TypeTraits]>([:])

  /// The traits of `type`.
  static func of<T>(_ type: T.Type) -> TypeTraits {
    let id = ObjectIdentifier(type)
    if let known = table.withLock({ $0[id] }) { return known }
    let unordered = type as? any CanonicalUnordered.Type
    let traits = TypeTraits(
      fastDiffable: type as? any FastDiffable.Type, fastPatchable: type as? any FastPatchable.Type,
      equatable: type as? any Equatable.Type, encodable: type as? any Encodable.Type,
      unordered: unordered?.isUnordered == true ? unordered : nil)
    table.withLock { $0[id] = traits }
    return traits
  }
}

/// Whether `a == b` by the `Equatable` conformance of `E`, the type `T` is.
func equalValues<E: Equatable, T>(_: E.Type, _ a: T, _ b: T) -> Bool {
  (a as! E) == (b as! E)
}
