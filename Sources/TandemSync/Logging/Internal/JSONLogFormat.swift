import StatePatch

/// A log line as one canonical JSON object: `label`, `level`, `message`, `metadata` (when
/// there is any), `source` (file:line) and `time`.
enum JSONLogFormat {
  /// The JSON object of `record` with `metadata`, on one line without the newline.
  static func line(
    _ record: TandemLogRecord, metadata: TandemLogger.Metadata, time: String
  ) -> String {
    var members: [(key: String, value: JSONValue)] = [
      ("label", .string(record.label)), ("level", .string(record.level.rawValue)),
      ("message", .string(record.message)), ("source", .string("\(record.file):\(record.line)")),
      ("time", .string(time)),
    ]
    if !metadata.isEmpty {
      members.append(
        ("metadata", .object(JSONObject(metadata.map { ($0.key, .string($0.value)) }))))
    }
    return JSONValue.object(JSONObject(members)).canonicalText
  }
}
