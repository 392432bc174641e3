/// The text of a log line for people: time, level, label, message and the metadata as
/// `key=value` pairs in key order.
enum TextLogFormat {
  /// The text of `record` with `metadata`, without the newline.
  static func line(
    _ record: TandemLogRecord, metadata: TandemLogger.Metadata, time: String
  ) -> String {
    let level = record.level.rawValue
    let padded = level + String(repeating: " ", count: max(1, 6 - level.count))
    let pairs = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\(quoted($0.value))" }
    return "\(time) \(padded)\(record.label) \(record.message)" + pairs.joined()
  }

  /// `value` as is, or in double quotes when it has a space, a quote or nothing at all.
  private static func quoted(_ value: String) -> String {
    guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else {
      return value
    }
    return "\"" + value.replacingQuotes() + "\""
  }
}

extension String {
  fileprivate func replacingQuotes() -> String {
    var out = ""
    for character in self {
      if character == "\"" || character == "\\" { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
