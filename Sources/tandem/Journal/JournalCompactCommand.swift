import CommandLineKit
import TandemJournal
import TandemSync

/// `tandem journal compact --db LOCATION [--window N] [--reclaim]`: removes what recovery and
/// catch-up no longer need and checkpoints the log. On a file it takes the leader lock, so it
/// refuses to run while a leader has the journal open; on PostgreSQL it runs in one
/// transaction beside the leaders.
let journalCompactCommand = Command(
  name: "compact",
  summary: "Remove old snapshots and deltas outside the catch-up window; checkpoint the log",
  usage: "--db LOCATION [--window N] [--reclaim]\n\n" + journalLocationHelp
    + "                 A file is refused while a leader has it open; a PostgreSQL journal\n"
    + "                 is compacted in one transaction, beside its leaders.\n"
    + "  --window N     deltas to keep behind the latest snapshot (default 100000)\n"
    + "  --reclaim      (files) also return the freed pages to the file system",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["reclaim"])
    let location = try journalLocation(&arguments)
    let window = try arguments.integer("window", default: 100_000)
    let reclaim = arguments.flag("reclaim")
    try arguments.finish()
    // Only a journal that exists: opened for writing, a missing one would be created.
    try readJournal(location).close()
    guard case .sqlite(let path) = location else {
      guard case .postgres(let connection) = location else { return }
      let journal = try PostgresJournal(
        connection: connection, configuration: .init(catchUpWindow: UInt64(window)))
      let compaction = try journal.compact()
      try writeLine(
        "compacted \(location): removed \(compaction.deltasRemoved) deltas and "
          + "\(compaction.snapshotsRemoved) snapshots")
      return
    }
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
