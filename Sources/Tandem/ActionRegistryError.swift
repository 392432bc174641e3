/// Why an ``ActionRegistry`` could not encode or decode an action.
///
/// Every case names what failed, so a leader can reject a forwarded action with a message the
/// follower's operator can act on, instead of crashing or applying half an action.
public enum ActionRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No action type is registered under this tag.
  case unknownTag(String)
  /// The payload is not a valid encoding of the type registered under `tag`; `reason` describes
  /// the decoding failure (the coding path and what was wrong there).
  case undecodable(tag: String, reason: String)
  /// The action's type (named by its Swift type name) is not registered, so it has no tag.
  case unregisteredType(String)
  /// The action registered under `tag` failed to encode; `reason` describes the failure.
  case unencodable(tag: String, reason: String)

  /// A one-line description of the failure.
  public var description: String {
    switch self {
    case .unknownTag(let tag):
      return "no action type is registered under the tag \"\(tag)\""
    case .undecodable(let tag, let reason):
      return "the payload for \"\(tag)\" does not decode: \(reason)"
    case .unregisteredType(let name):
      return "the action type \(name) is not registered"
    case .unencodable(let tag, let reason):
      return "the action \"\(tag)\" does not encode: \(reason)"
    }
  }
}
