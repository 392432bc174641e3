import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal verify --db PATH [--json]`: a thorough check; exit status 1 on problems.
let journalVerifyCommand = Command(
  name: "verify",
  summary: "Check a journal's integrity: pages, format, gapless deltas, snapshot, ledger",
  usage: "--db PATH [--json]\n\n"
    + "  --db PATH  the journal file (opened read-only; a leader may be running)\n"
    + "  --json     one JSON object instead of text (progress still goes to stderr)\n\n"
    + "Exits with status 1 when the journal cannot be used or a check finds a problem.",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["json"])
    let path = try journalPath(&arguments)
    let json = arguments.flag("json")
    try arguments.finish()
    let clock = ContinuousClock()
    let start = clock.now
    let verification = try readJournal(at: path).verify { line in
      printError(line)
    }
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
      let seconds =
        Double(elapsed.components.seconds)
        + Double(elapsed.components.attoseconds) * 1e-18
      try writeLine(
        "ok: \(path) passed \(verification.checks.count) checks in "
          + "\((seconds * 100).rounded() / 100) s")
    } else {
      for problem in verification.problems { try writeLine("problem: \(problem)") }
    }
    guard verification.isSound else {
      throw JournalProblems(count: verification.problems.count)
    }
  }
)
