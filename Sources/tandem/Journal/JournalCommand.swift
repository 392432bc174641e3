import CommandLineKit
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// The journal at `path`, opened read-only. A directory or a special file (a FIFO, where the
/// open would wait for a writer for good; a device) is refused as such.
func openJournal(readingAt path: String) throws -> Journal {
  var status = stat()
  if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
    let kind =
      status.st_mode & S_IFMT == S_IFDIR
      ? "a directory" : "a special file (a FIFO, device or socket)"
    throw CommandFailure(.failure, "\(path) is \(kind), not a journal file")
  }
  return try Journal(readingAt: path)
}
