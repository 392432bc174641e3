/// Why an ``ActionReplay`` could not read a recording; a bad line names its line number.
public enum ActionReplayError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `call` (`open` or `read`) failed for `path` with `errno`.
  case cannotRead(path: String, call: String, errno: Int32)
  /// Line `line` (counted from 1) is not a recorded action: not a JSON object, or without a
  /// string `tag` and a number `time`. `reason` describes what is wrong.
  case malformedLine(line: Int, reason: String)
  /// Line `line` has an unknown tag or a payload that does not decode as its tag's type.
  case badAction(line: Int, ActionRegistryError)

  /// The number of the bad line, counted from 1; `nil` when the file could not be read.
  public var line: Int? {
    switch self {
    case .cannotRead: return nil
    case .malformedLine(let line, _), .badAction(let line, _): return line
    }
  }

  /// A one-line description of the failure.
  public var description: String {
    switch self {
    case .cannotRead(let path, let call, let errno):
      return "cannot read \(path): \(call) failed: \(systemErrorText(errno)) (errno \(errno))"
    case .malformedLine(let line, let reason):
      return "line \(line): not a recorded action: \(reason)"
    case .badAction(let line, let error):
      return "line \(line): \(error)"
    }
  }
}
