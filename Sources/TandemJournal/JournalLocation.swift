/// Where a journal is: an SQLite file, or a PostgreSQL database that leaders share.
///
/// Parsed from what an operator types after `--db`: `sqlite:PATH` or a plain `PATH` for a
/// file, `postgres://...` or `postgresql://...` (libpq's URL) or libpq's `key=value` words for a
/// database. Its
/// ``description`` never shows a password.
public enum JournalLocation: Sendable, Hashable, CustomStringConvertible {
  /// An SQLite journal file.
  case sqlite(path: String)
  /// A PostgreSQL database, by its libpq connection string (password included: never print it,
  /// print the location's ``description``).
  case postgres(connection: String)

  /// The environment variable the commands read a journal's location from when `--db` is not
  /// given, so a connection string with a password need not be on a command line.
  public static let environmentVariable = "TANDEM_JOURNAL_URL"

  /// The location `text` names: `sqlite:PATH`, `postgres://...`, `postgresql://...`, libpq's
  /// `key=value` form (`host=db.internal dbname=app`: words libpq parses as its options), or a
  /// path.
  public init(parsing text: String) {
    if text.hasPrefix("sqlite:") {
      self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
    } else if PostgresConnectionString.isURL(text)
      || (text.contains("=") && (try? PostgresConnectionString(text)) != nil)
    {
      self = .postgres(connection: text)
    } else {
      self = .sqlite(path: text)
    }
  }

  /// The path, or the connection string with its password replaced by `***`.
  public var description: String {
    switch self {
    case .sqlite(let path): return path
    case .postgres(let connection):
      guard let string = try? PostgresConnectionString(connection) else {
        return "(a PostgreSQL connection string that does not parse)"
      }
      return string.description
    }
  }
}
