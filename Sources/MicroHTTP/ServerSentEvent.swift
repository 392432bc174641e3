/// One Server-Sent Event: optional `id` and `event` name, the `data`, an optional `retry` delay.
///
/// Multi-line data is sent as one `data:` line per line, as the SSE format requires.
public struct ServerSentEvent: Sendable, Equatable {
  /// The event id (`id:`), which the browser sends back as `Last-Event-ID` on reconnect.
  public var id: String?
  /// The event type (`event:`); browsers use `message` when absent.
  public var event: String?
  /// The payload (`data:`).
  public var data: String
  /// The reconnection delay in milliseconds (`retry:`).
  public var retry: Int?

  /// An event; `id` and `event` must not contain line breaks (a programmer error).
  public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
    precondition(
      !(id ?? "").contains(where: \.isNewline) && !(event ?? "").contains(where: \.isNewline),
      "ServerSentEvent: id and event must not contain line breaks")
    self.id = id
    self.event = event
    self.data = data
    self.retry = retry
  }

  /// The event in the wire format, ending with the blank line that dispatches it.
  public var encoded: String {
    var text = ""
    if let id { text += "id: \(id)\n" }
    if let event { text += "event: \(event)\n" }
    if let retry { text += "retry: \(retry)\n" }
    for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      text += "data: \(line)\n"
    }
    return text + "\n"
  }
}
