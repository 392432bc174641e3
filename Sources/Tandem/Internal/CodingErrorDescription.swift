/// A one-line description of a coding error: where in the value it happened and what was wrong.
///
/// `DecodingError`'s own description is a multi-line dump; the replication layer sends this text
/// to the other side, so it is kept short and specific.
func describeCodingError(_ error: any Error) -> String {
  if let error = error as? DecodingError {
    switch error {
    case .typeMismatch(let type, let context):
      return "type mismatch at \(path(context.codingPath)): expected \(type); "
        + context.debugDescription
    case .valueNotFound(let type, let context):
      return "missing value at \(path(context.codingPath)): expected \(type); "
        + context.debugDescription
    case .keyNotFound(let key, let context):
      return "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
    case .dataCorrupted(let context):
      return "invalid data at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }
  if let error = error as? EncodingError {
    switch error {
    case .invalidValue(let value, let context):
      return "invalid value \(value) at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }
  return String(describing: error)
}

/// A coding path as a dotted string, `$` for the root: `$.items[2].name`.
private func path(_ codingPath: [any CodingKey]) -> String {
  var text = "$"
  for key in codingPath {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      text += "." + key.stringValue
    }
  }
  return text
}
