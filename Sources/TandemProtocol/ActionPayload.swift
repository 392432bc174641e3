import StatePatch
import Tandem

/// The JSON payload of a forwarded action (the end of `DISPATCH`'s body frame): how a Swift follower writes
/// it and how a leader reads it, without Foundation's `JSONEncoder` and `JSONDecoder` on the
/// hot path.
///
/// A follower writes the action's canonical JSON (``StatePatch/StateEncoder``), which means the
/// same as what ``Tandem/ActionRegistry/encode(_:)`` writes (keys sorted the same way, numbers
/// possibly spelled another way: `5.0` for the double 5). An action holding a `URL` or a
/// `Decimal`, whose canonical form differs from `JSONEncoder`'s, and one that does not encode,
/// go through the registry, which also words the error.
///
/// A leader reads the payload with the canonical parser and ``StatePatch/StateDecoder``. A
/// payload either refuses (not strict RFC 8259 JSON, a duplicate key, an integer beyond 64 bits,
/// a member of the wrong kind...) and an action type holding a `URL` or a `Decimal` go through
/// ``Tandem/ActionRegistry/decode(tag:payload:)``, so the leader accepts what the registry
/// accepts, and its errors name the coding path as the registry's do. (The one difference: the
/// integer literal `-0` read as a `Double` is `0.0` here, `-0.0` there.)
package enum ActionPayload {
  /// The tag and the JSON payload of `action`.
  ///
  /// - Throws: the registry's error for an unregistered type or an action that does not encode.
  package static func encode(
    _ action: any Action, registry: ActionRegistry
  ) throws(ActionRegistryError) -> (tag: String, payload: Frame) {
    guard let tag = registry.tag(of: action), let type = registry.actionType(forTag: tag),
      let payload = canonicalBytes(of: action, as: type)
    else {
      return try registry.encode(action)
    }
    return (tag, payload)
  }

  /// The action registered under `tag` that `payload` holds.
  ///
  /// - Throws: ``Tandem/ActionRegistryError/unknownTag(_:)`` and
  ///   ``Tandem/ActionRegistryError/undecodable(tag:reason:)``, as the registry does.
  package static func decode(
    tag: String, payload: Frame, registry: ActionRegistry
  ) throws(ActionRegistryError) -> any Action {
    guard let type = registry.actionType(forTag: tag) else { throw .unknownTag(tag) }
    if let document = try? JSONValue(parsing: payload), let action = decode(type, from: document) {
      return action
    }
    return try registry.decode(tag: tag, payload: payload)
  }

  /// The canonical bytes of `action`, an `A`, or nil when the registry must encode it.
  private static func canonicalBytes<A: Action & Encodable>(
    of action: any Action, as _: A.Type
  ) -> Frame? {
    guard let action = action as? A else { return nil }
    var encoder = StateEncoder()
    guard let json = try? encoder.encodeMatchingJSONEncoder(action) else { return nil }
    return json.canonicalBytes()
  }

  /// The `A` that `document` holds, or nil when the registry must decode it.
  private static func decode<A: Action & Decodable>(_ type: A.Type, from document: JSONValue) -> A?
  {
    var decoder = StateDecoder()
    return try? decoder.decodeMatchingJSONDecoder(type, from: document) ?? nil
  }
}
