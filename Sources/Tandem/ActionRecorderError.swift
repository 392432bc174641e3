/// Why an ``ActionRecorder`` could not open its file or record an action.
public enum ActionRecorderError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `open` failed for `path` with `errno`.
  case cannotOpen(path: String, errno: Int32)
  /// `write` failed for `path` with `errno`; the action was dispatched but not recorded.
  case cannotWrite(path: String, errno: Int32)
  /// The action's type is registered but it failed to encode (``ActionRegistryError``).
  case cannotEncode(ActionRegistryError)

  /// A one-line description of the failure, with the system's text for `errno`.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let errno):
      return "cannot open \(path) for recording: \(systemErrorText(errno)) (errno \(errno))"
    case .cannotWrite(let path, let errno):
      return "cannot write to \(path): \(systemErrorText(errno)) (errno \(errno))"
    case .cannotEncode(let error):
      return "cannot record an action: \(error)"
    }
  }
}
