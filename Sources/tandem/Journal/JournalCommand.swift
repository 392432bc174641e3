import CommandLineKit
import TandemJournal
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tandem journal <command>`: look into, check, compact, back up, restore and salvage a
/// leader's journal, an SQLite file or a PostgreSQL database.
let journalCommands = CommandGroup(
  name: "tandem journal",
  summary:
    "Inspect, verify, compact, back up, restore and salvage a leader's journal (an SQLite file "
    + "or a PostgreSQL database; salvage reads files only).",
  commands: [
    journalInspectCommand, journalVerifyCommand, journalCompactCommand, journalBackupCommand,
    journalRestoreCommand, journalSalvageCommand,
  ],
  exitStatuses: """
    Exit status:
      0   success (verify: every check passed)
      1   the journal cannot be used, or (verify) a check found a problem, or (restore) the
          database holds a journal or a leader holds its lease (nothing was written)
      64  the command was called wrongly (see the usage above)
      66  there is no journal at the --db location (restore: at the --from path)
      69  salvage was given a PostgreSQL journal, or restore a journal file (see their help)
      74  the output could not be written (e.g. a full disk)
    """
)

let journalCommand = Command(
  name: "journal",
  summary: "Inspect, verify, compact, back up, restore or salvage a leader's journal",
  subcommands: journalCommands
)

/// A journal check found problems; the process exits with status 1.
struct JournalProblems: Error, CustomStringConvertible {
  var count: Int
  var description: String { "\(count) problem(s) found" }
}

/// The `--db` option of the journal commands (`PATH`, `sqlite:PATH` or `postgres://...`), or
/// else the `TANDEM_JOURNAL_URL` environment variable; not empty.
func journalLocation(_ arguments: inout CommandLineArguments) throws(UsageError) -> JournalLocation
{
  let variable = JournalLocation.environmentVariable
  guard let text = arguments.option("db") ?? environmentValue(variable) else {
    throw arguments.missing("db", "or set \(variable)")
  }
  guard !text.isEmpty else {
    throw UsageError("--db is empty: give the journal file's path or a postgres:// URL")
  }
  return JournalLocation(parsing: text)
}

/// The `--db` of a command that reads SQLite journals only: the file's path.
func journalPath(_ arguments: inout CommandLineArguments, command: String) throws -> String {
  switch try journalLocation(&arguments) {
  case .sqlite(let path): return path
  case .postgres:
    throw CommandFailure(
      .unavailable,
      "tandem journal \(command) reads SQLite journal files only; a PostgreSQL journal is "
        + "checked with tandem journal verify, and copied with tandem journal backup")
  }
}

/// The value of the environment variable `name`, if set.
func environmentValue(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}

/// The help text of `--db` for commands that take either kind of journal.
let journalLocationHelp =
  "  --db LOCATION  the journal: a file (PATH or sqlite:PATH) or a PostgreSQL database\n"
  + "                 (postgres://user@host/db); without --db, the TANDEM_JOURNAL_URL\n"
  + "                 environment variable (keeps a password off the command line).\n"
  + "                 Passwords are never printed.\n"

/// Opens the journal at `location` read-only (no lock, no lease, nothing written); no journal
/// there ends with status 66 (EX_NOINPUT), as sysexits has it for missing input.
func readJournal(_ location: JournalLocation) throws -> any JournalReader {
  do {
    return try location.openForReading()
  } catch .notFound {
    throw noJournal(location)
  }
}

/// Opens the journal file at `path` read-only; no file there ends with status 66.
func readJournal(at path: String) throws -> Journal {
  do {
    return try Journal(readingAt: path)
  } catch .notFound {
    throw noJournal(.sqlite(path: path))
  }
}

/// The failure for a location without a journal: status 66.
func noJournal(_ location: JournalLocation, option: String = "--db") -> CommandFailure {
  switch location {
  case .sqlite(let path):
    return CommandFailure(.notFound, "no journal at \(path): check the \(option) path")
  case .postgres:
    return CommandFailure(
      .notFound,
      "no journal in \(location): the database has no Tandem journal tables; check the "
        + "\(option) URL")
  }
}
