import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal verify --db LOCATION [--json]`: a thorough check of an SQLite or PostgreSQL
/// journal; exit status 1 on problems.
let journalVerifyCommand = Command(
  name: "verify",
  summary: "Check a journal's integrity: pages, format, gapless deltas, snapshot, ledger",
  usage: "--db LOCATION [--json]\n\n" + journalLocationHelp
    + "                 Read in one transaction, writing nothing; a leader may be running.\n"
    + "  --json         one JSON object instead of text (progress still goes to stderr)\n\n"
    + "Exits with status 1 when the journal cannot be used or a check finds a problem.",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["json"])
    let location = try journalLocation(&arguments)
    let path = location.description
    let json = arguments.flag("json")
    try arguments.finish()
    let clock = ContinuousClock()
    let start = clock.now
    let journal = try readJournal(location)
    defer { journal.close() }
    let verification = try journal.verify { line in printError(line) }
    let elapsed = clock.now - start
    if json {
      try writeLine(
        JournalOutput.object([
          ("path", JournalOutput.json(path)),
          ("sound", verification.isSound ? "true" : "false"),
          (
            "checks", "[" + verification.checks.map(JournalOutput.json).joined(separator: ",") + "]"
          ),
          (
            "problems",
            "[" + verification.problems.map(JournalOutput.json).joined(separator: ",") + "]"
          ),
        ]))
    } else if verification.isSound {
      try writeLine(
        "ok: \(path) passed \(verification.checks.count) checks in "
          + "\(JournalOutput.seconds(elapsed, decimals: 2)) s")
    } else {
      for problem in verification.problems { try writeLine("problem: \(problem)") }
    }
    guard verification.isSound else {
      throw JournalProblems(count: verification.problems.count)
    }
  }
)
