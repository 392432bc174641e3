import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal restore --from FILE --db postgres://...`: a backup (a journal file) copied
/// into a PostgreSQL database that holds no journal, with a new epoch. A journal file is
/// restored by moving the backup into its place instead (see the help).
let journalRestoreCommand = Command(
  name: "restore",
  summary: "Restore a backup into a PostgreSQL database, with a new epoch",
  usage: "--from FILE --db LOCATION\n\n"
    + "  --from FILE    the backup: a journal file, as tandem journal backup makes of either\n"
    + "                 kind of journal (read only, never changed)\n"
    + "  --db LOCATION  the PostgreSQL database to restore into (postgres://user@host/db);\n"
    + "                 without --db, the TANDEM_JOURNAL_URL environment variable.\n"
    + "                 Passwords are never printed. It must hold no journal (no Tandem\n"
    + "                 tables, or empty ones), and no leader may hold its lease: restore\n"
    + "                 refuses otherwise and writes nothing.\n\n"
    + "Copies the backup's snapshot, deltas and ledger in one transaction, with a new epoch,\n"
    + "and says which sequences the backup holds.\n\n" + journalRestoreProcedures,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let source = try arguments.required("from")
    let location = try journalLocation(&arguments)
    try arguments.finish()
    guard !source.isEmpty else {
      throw UsageError("--from is empty: give the path of the backup to restore")
    }
    guard case .postgres(let connection) = location else {
      throw CommandFailure(
        .unavailable,
        "tandem journal restore writes into a PostgreSQL database; to restore a journal file, "
          + "stop its leader and move the backup over it (see tandem journal restore --help)")
    }
    let restore = try restoreJournal(from: source, into: connection)
    let snapshot =
      restore.snapshotSequence.map { sequence in
        "the snapshot at \(sequence) and \(restore.actionsAfterSnapshot) action(s) after it"
          + (restore.oldestSequence.map { $0 <= sequence ? ", deltas from \($0) on" : "" } ?? "")
      } ?? "no snapshot"
    try writeLine(
      "restored \(source) into \(restore.location): new epoch \(restore.epoch) (the backup's "
        + "was \(restore.backupEpoch)); the backup holds sequences up to "
        + "\(restore.lastSequence) (\(snapshot)).\n"
        + "Actions acknowledged after the backup was taken are not in it and are lost; "
        + "followers resync in the new epoch.")
  }
)

/// Restores the backup at `path` into the database at `connection`; no backup there ends with
/// status 66.
func restoreJournal(from path: String, into connection: String) throws -> PostgresJournal.Restore {
  do {
    return try PostgresJournal.restore(from: path, into: connection)
  } catch .notFound {
    throw noJournal(.sqlite(path: path), option: "--from")
  }
}
