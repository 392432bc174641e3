import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal backup --db LOCATION --to FILE`: a consistent copy of a journal, also of one
/// a leader is writing, as an SQLite journal file (SQLite's online backup API for a file; one
/// `REPEATABLE READ` transaction for a PostgreSQL journal).
let journalBackupCommand = Command(
  name: "backup",
  summary: "Copy a journal consistently into a journal file, also while its leader runs",
  usage: "--db LOCATION --to FILE\n\n" + journalLocationHelp
    + "                 Read in one transaction, writing nothing; a leader may be running.\n"
    + "  --to FILE      the copy to create, a journal file (also of a PostgreSQL journal),\n"
    + "                 which verify and inspect read; an existing file is never overwritten\n\n"
    + journalRestoreProcedures,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let location = try journalLocation(&arguments)
    let destination = try arguments.required("to")
    try arguments.finish()
    guard !destination.isEmpty else {
      throw UsageError("--to is empty: give the path of the copy to create")
    }
    let journal = try readJournal(location)
    defer { journal.close() }
    let backup = try journal.backup(to: destination)
    try writeLine(
      "backed up \(location) to \(backup.path): epoch \(backup.epoch), sequence "
        + "\(backup.sequence), \(JournalOutput.size(backup.bytes))")
  }
)

/// How a backup is restored, for each kind of journal: the end of the help of backup and
/// restore.
let journalRestoreProcedures = """
  To restore a journal file: stop the leader, move the copy over the journal file, remove the
  journal's -wal and -shm files (keep its -mark), and start the leader: when the journal went
  on after the backup, it mints a new epoch and says how many sequences the copy lacks.
  To restore a PostgreSQL journal: stop the leaders sharing it, then run
    tandem journal restore --from FILE --db postgres://...
  into a database that holds no journal (a new one), which gives the restored history a new
  epoch, and start the leaders on that database.
  Followers resync from the new epoch; the actions acknowledged after the backup was taken are
  not in it, and are lost.
  """
