import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal backup --db PATH --to FILE`: a consistent copy of a journal, also of one a
/// leader is writing (SQLite's online backup API).
let journalBackupCommand = Command(
  name: "backup",
  summary: "Copy a journal consistently, also while its leader runs",
  usage: "--db PATH --to FILE\n\n"
    + "  --db PATH  the journal file (opened read-only; a leader may be running)\n"
    + "  --to FILE  the copy to create; an existing file is never overwritten\n\n"
    + "To restore: stop the leader, move the copy over the journal file, remove the journal's\n"
    + "-wal and -shm files (keep its -mark), and start the leader: it mints a new epoch when\n"
    + "the journal went on after the backup, and says how many sequences the copy lacks;\n"
    + "followers resync.",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let path = try journalPath(&arguments, command: "backup")
    let destination = try arguments.required("to")
    try arguments.finish()
    guard !destination.isEmpty else {
      throw UsageError("--to is empty: give the path of the copy to create")
    }
    let journal = try readJournal(at: path)
    defer { journal.close() }
    let backup = try journal.backup(to: destination)
    try writeLine(
      "backed up \(path) to \(backup.path): epoch \(backup.epoch), sequence \(backup.sequence), "
        + JournalOutput.size(backup.bytes))
  }
)
