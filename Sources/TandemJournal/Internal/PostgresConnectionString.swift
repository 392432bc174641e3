import CPostgres

/// A libpq connection string (`postgres://user:secret@host:5432/db` or
/// `host=/tmp port=5433 dbname=db`), with a description that leaves the password out.
package struct PostgresConnectionString: Sendable, Hashable, CustomStringConvertible {
  /// The string as given, password included: handed to libpq only, never printed.
  package let raw: String

  /// The string `raw`, checked by libpq's parser.
  package init(_ raw: String) throws(PostgresError) {
    var message: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(raw, &message) else {
      let text = message.map { String(cString: $0) } ?? "cannot parse it"
      PQfreemem(message)
      throw PostgresError(
        sqlState: nil, message: Self.oneLine(text), call: "parsing a PostgreSQL connection string")
    }
    PQconninfoFree(options)
    self.raw = raw
  }

  /// Whether `text` reads as a PostgreSQL connection URL (`postgres://` or `postgresql://`).
  package static func isURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// The options libpq reads from the string, as `key=value` pairs, with the password (and
  /// any other secret) replaced by `***`: what logs and messages show.
  package var description: String {
    guard let options = PQconninfoParse(raw, nil) else { return "(unparsable connection string)" }
    defer { PQconninfoFree(options) }
    var parts: [String] = []
    var option = options
    while let keyword = option.pointee.keyword {
      defer { option += 1 }
      guard let value = option.pointee.val else { continue }
      let key = String(cString: keyword)
      let secret =
        key == "password" || key == "sslpassword" || key == "sslkey"
        || String(cString: option.pointee.dispchar) == "*"
      parts.append("\(key)=\(secret ? "***" : String(cString: value))")
    }
    return parts.joined(separator: " ")
  }

  /// `text` with its line breaks (libpq ends messages with one) turned into spaces.
  package static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingPrefixSpaces() }.joined(separator: " ")
  }
}

extension Substring {
  fileprivate func trimmingPrefixSpaces() -> Substring { drop { $0 == " " || $0 == "\t" } }
}
