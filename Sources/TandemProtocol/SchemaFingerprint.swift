import StatePatch
import Tandem

/// The schema fingerprint leader and followers compare at `HELLO`: a hash of the state type's
/// name, the action registry's fingerprint and the application's schema version.
///
/// Processes built from the same code agree and are welcomed at once. A follower of another
/// fingerprint is welcomed only if the ``ApplicationSchema`` its `HELLO` carries is compatible
/// with the leader's (see <doc:SchemaEvolution>), and refused with a clear message otherwise
/// instead of corrupting its replica. ``JSONFollower`` sends `*`, which any leader accepts.
public enum SchemaFingerprint {
  /// The fingerprint of `state` with `registry` at `version`, as 16 hexadecimal digits.
  public static func of<State>(
    _ state: State.Type, registry: ActionRegistry, version: String
  )
    -> String
  {
    let text =
      "state:\(String(reflecting: state))\nactions:\(registry.fingerprint)\nversion:\(version)"
    let hash = JSONValue.string(text).canonicalHash()
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The fingerprint that matches any schema, for followers that hold plain JSON.
  public static let any = "*"
}
