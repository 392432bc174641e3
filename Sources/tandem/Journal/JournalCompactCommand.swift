import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal compact --db PATH [--window N] [--reclaim]`: removes what recovery and
/// catch-up no longer need and checkpoints the log. Takes the leader lock, so it refuses to run
/// while a leader has the journal open.
let journalCompactCommand = Command(
  name: "compact",
  summary: "Remove old snapshots and deltas outside the catch-up window; checkpoint the log",
  usage: "--db PATH [--window N] [--reclaim]\n\n"
    + "  --db PATH   the journal file; refused while a leader has it open\n"
    + "  --window N  deltas to keep behind the latest snapshot (default 100000)\n"
    + "  --reclaim   also return the freed pages to the file system (shrinks the file)",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["reclaim"])
    let path = try journalPath(&arguments)
    let window = try arguments.integer("window", default: 100_000)
    let reclaim = arguments.flag("reclaim")
    try arguments.finish()
    // Only a journal that exists: opened for writing, a missing or empty file would become one.
    try readJournal(at: path).close()
    let journal = try Journal(
      path: path,
      configuration: .init(durability: .full, catchUpWindow: UInt64(window)))
    defer { journal.close() }
    let before = try journal.stats()
    let compaction = try journal.compact { line in printError(line) }
    if reclaim {
      printError("compact: returning free pages to the file system...")
      try journal.reclaimSpace()
    }
    let after = try journal.stats()
    try writeLine(
      "compacted \(path): removed \(compaction.deltasRemoved) deltas and "
        + "\(compaction.snapshotsRemoved) snapshots; file \(JournalOutput.size(before.fileBytes)) "
        + "-> \(JournalOutput.size(after.fileBytes)), log \(JournalOutput.size(after.walBytes)), "
        + "\(after.freePages) free pages")
  }
)
