/// One Server-Sent Event: optional `id` and `event` name, the `data`, an optional `retry` delay.
///
/// Multi-line data is sent as one `data:` line per line, as the SSE format requires. Lines end
/// only at CRLF, LF or CR, as in the browser's parser: U+0085, U+2028 and U+2029 (which JSON
/// strings may hold) stay inside a line.
public struct ServerSentEvent: Sendable, Equatable {
  /// The event id (`id:`), which the browser sends back as `Last-Event-ID` on reconnect.
  ///
  /// Must not contain CR or LF (a programmer error that traps), which would start another field.
  public var id: String? {
    didSet { Self.checkField(id, "id") }
  }
  /// The event type (`event:`); browsers use `message` when absent.
  ///
  /// Must not contain CR or LF (a programmer error that traps), which would start another field.
  public var event: String? {
    didSet { Self.checkField(event, "event") }
  }
  /// The payload (`data:`).
  public var data: String
  /// The reconnection delay in milliseconds (`retry:`).
  public var retry: Int?

  /// An event; `id` and `event` must not contain CR or LF (a programmer error).
  public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
    Self.checkField(id, "id")
    Self.checkField(event, "event")
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
    for line in dataLines { text += "data: \(line)\n" }
    return text + "\n"
  }

  /// `data` cut at each CRLF, LF and CR (scalar by scalar: a `Character` would also break at
  /// U+0085, U+2028 and U+2029).
  private var dataLines: [String] {
    var lines = [""]
    var previous: Unicode.Scalar?
    for scalar in data.unicodeScalars {
      switch scalar {
      case "\n" where previous == "\r":
        break
      case "\r", "\n":
        lines.append("")
      default:
        lines[lines.count - 1].unicodeScalars.append(scalar)
      }
      previous = scalar
    }
    return lines
  }

  /// Traps when `value` holds a CR or LF, which would end the field and start another.
  private static func checkField(_ value: String?, _ name: String) {
    precondition(
      !(value ?? "").unicodeScalars.contains { $0 == "\r" || $0 == "\n" },
      "ServerSentEvent: \(name) must not contain CR or LF")
  }
}
