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
  usage: "<command> --db PATH [options]\n\n"
    + journalCommands.commands.map { command in
      "\(command.name): \(command.summary)\n  tandem journal \(command.name) \(command.usage)"
    }.joined(separator: "\n\n"),
  run: { arguments in
    let status = journalCommands.run(arguments)
    guard status == .success else { throw JournalCommandFailed(status: status) }
  }
)

/// A journal subcommand ended with a non-zero status (its message is already printed).
struct JournalCommandFailed: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "ended with status \(status)" }

  init(status: ExitStatus) {
    self.status = status.rawValue
  }
}

/// A journal check found problems; the process exits with status 1.
struct JournalProblems: Error, CustomStringConvertible {
  var count: Int
  var description: String { "\(count) problem(s) found" }
}
