import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal <command>`: look into, check, compact and back up a leader's journal file.
let journalCommands = CommandGroup(
  name: "tandem journal",
  summary: "Inspect, verify, compact, back up and salvage a leader's journal (an SQLite file).",
  commands: [
    journalInspectCommand, journalVerifyCommand, journalCompactCommand, journalBackupCommand,
    journalSalvageCommand,
  ],
  exitStatuses: """
    Exit status:
      0   success (verify: every check passed)
      1   the journal cannot be used, or (verify) a check found a problem
      64  the command was called wrongly (see the usage above)
      66  there is no journal at the --db path
      74  the output could not be written (e.g. a full disk)
    """
)

let journalCommand = Command(
  name: "journal",
  summary: "Inspect, verify, compact, back up or salvage a leader's journal",
  subcommands: journalCommands
)

/// A journal check found problems; the process exits with status 1.
struct JournalProblems: Error, CustomStringConvertible {
  var count: Int
  var description: String { "\(count) problem(s) found" }
}

/// The `--db` option of the journal commands: the journal file's path, not empty.
func journalPath(_ arguments: inout CommandLineArguments) throws(UsageError) -> String {
  let path = try arguments.required("db")
  guard !path.isEmpty else { throw UsageError("--db is empty: give the journal file's path") }
  return path
}

/// Opens the journal at `path` read-only; a path with no file there ends with status 66
/// (EX_NOINPUT), as sysexits has it for missing input.
func readJournal(at path: String) throws -> Journal {
  do {
    return try Journal(readingAt: path)
  } catch .notFound {
    throw CommandFailure(.notFound, "no journal at \(path): check the --db path")
  }
}
