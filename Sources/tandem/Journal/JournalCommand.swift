import CommandLineKit

/// `tandem journal <command>`: look into, check and compact a leader's journal file.
let journalCommands = CommandGroup(
  name: "tandem journal",
  summary: "Inspect, verify and compact a leader's journal (an SQLite file).",
  commands: [journalInspectCommand, journalVerifyCommand, journalCompactCommand]
)

let journalCommand = Command(
  name: "journal",
  summary: "Inspect, verify or compact a leader's journal",
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
