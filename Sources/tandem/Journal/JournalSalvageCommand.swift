import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal salvage --db PATH --to FILE [--json]`: what a damaged journal holds up to its
/// first damage, in a new journal with a new epoch; the damaged file is only read.
let journalSalvageCommand = Command(
  name: "salvage",
  summary: "Keep a damaged journal's history up to its first damage, in a new journal",
  usage: "--db PATH --to FILE [--json]\n\n"
    + "  --db PATH  the damaged journal (opened read-only, never changed)\n"
    + "  --to FILE  the new journal to create; an existing file is never overwritten\n"
    + "  --json     one JSON object instead of text\n\n"
    + "Keeps the newest snapshot that reads whole and the deltas after it up to the first\n"
    + "damage `tandem journal verify` finds (a page that does not read, a gap, a row off the\n"
    + "hash chain, a delta cut short), and says how many sequences it kept and lost. The new\n"
    + "journal has a new epoch, so followers resync. To use it: stop the leader, keep the\n"
    + "damaged file (move it aside with its -wal, -shm and -mark), move the new journal and\n"
    + "its -mark into its place, and start the leader; a backup newer than the damage, when\n"
    + "there is one, loses less.",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["json"])
    let path = try journalPath(&arguments, command: "salvage")
    let destination = try arguments.required("to")
    let json = arguments.flag("json")
    try arguments.finish()
    guard !destination.isEmpty else {
      throw UsageError("--to is empty: give the path of the new journal to create")
    }
    let result = Result { () throws(JournalError) in
      try Journal.salvage(journalAt: path, to: destination)
    }
    if case .failure(.notFound) = result {
      throw CommandFailure(.notFound, "no journal at \(path): check the --db path")
    }
    let salvage = try result.get()
    if json {
      try writeLine(
        JournalOutput.object([
          ("path", JournalOutput.json(salvage.path)),
          ("epoch", JournalOutput.json(salvage.epoch.description)),
          ("base", "\(salvage.base)"), ("kept", "\(salvage.kept)"),
          ("keptDeltas", "\(salvage.keptDeltas)"), ("last", "\(salvage.last)"),
          ("lost", "\(salvage.lost)"),
          ("damage", salvage.damage.map(JournalOutput.json) ?? "null"),
        ]))
      return
    }
    try writeLine(
      "salvaged \(path) into \(salvage.path), epoch \(salvage.epoch): kept sequences up to "
        + "\(salvage.kept) (the snapshot at \(salvage.base) and \(salvage.keptDeltas) after it), "
        + "lost \(salvage.lost)"
        + (salvage.lost > 0 ? " (\(salvage.kept + 1)...\(salvage.last))" : ""))
    if let damage = salvage.damage { try writeLine("stopped at: \(damage)") }
  }
)
