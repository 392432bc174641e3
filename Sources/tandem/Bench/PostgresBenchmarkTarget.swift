import CommandLineKit
import PostgresTestSupport
import TandemJournal

/// The PostgreSQL database `tandem bench journal --db` measures a leader on: a private cluster
/// the benchmark starts (a new database for each run), or a given one (one run).
enum PostgresBenchmarkTarget: Sendable, CustomStringConvertible {
  /// A cluster of this process's own, syncing to disk, as the tests start one.
  case privateCluster
  /// The database at this connection string, which must hold no journal yet.
  case given(connection: String)

  /// The target `--db` names: nil for `sqlite` or none, the private cluster for `postgres`,
  /// else the database of a `postgres://` URL.
  init?(option: String?) throws(UsageError) {
    switch option {
    case nil, "sqlite": return nil
    case "postgres":
      PostgresTestCluster.syncsToDisk = true
      self = .privateCluster
    case let text?:
      guard case .postgres(let connection) = JournalLocation(parsing: text) else {
        throw UsageError("--db takes sqlite, postgres or a postgres:// URL")
      }
      self = .given(connection: connection)
    }
  }

  /// Whether only one run is made (with no warm-up): a given database holds one history.
  var runsOnce: Bool {
    if case .given = self { return true }
    return false
  }

  /// The connection string of run `run`'s database, or nil when this target makes no such run
  /// (a given database is used for the first run only).
  func database(run: Int) throws -> String? {
    switch self {
    case .privateCluster: return try PostgresTestCluster.database()
    case .given(let connection):
      guard run == 0 else { return nil }
      let journal = try PostgresJournal(connection: connection)
      defer { journal.close() }
      guard try journal.lastSequence == 0, try journal.latestSnapshot() == nil else {
        throw CommandFailure(
          .unavailable,
          "the database at \(JournalLocation.postgres(connection: connection)) already holds a "
            + "journal: give the benchmark an empty scratch database")
      }
      return connection
    }
  }

  var description: String {
    switch self {
    case .privateCluster: return "a private cluster (fsync on), a new database per run"
    case .given(let connection): return "\(JournalLocation.postgres(connection: connection))"
    }
  }
}
