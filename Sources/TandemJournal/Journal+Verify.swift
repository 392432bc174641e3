import TandemProtocol

extension Journal {
  /// What ``verify(progress:)`` found: an empty list of problems means a sound journal.
  public struct Verification: Sendable, Equatable {
    /// Each problem found, in words.
    public var problems: [String]
    /// The checks that ran, in order.
    public var checks: [String]

    /// Whether no problem was found.
    public var isSound: Bool { problems.isEmpty }
  }

  /// Checks the journal thoroughly: SQLite's `integrity_check` of every page, a file of whole
  /// pages, the format and
  /// meta records, every delta and snapshot sequence one a journal can hold (from 0 to
  /// `Int64.max - 1` as SQLite integers; the checks after it run only then), a snapshot
  /// present whenever there are deltas, the deltas gapless from the
  /// oldest kept through the last (and reaching the latest snapshot), every delta row matching
  /// the journal's hash chain (a changed byte names the first sequence damaged), every delta
  /// whole (the
  /// history does not end inside a delta of several actions, and the latest snapshot is not
  /// inside one), and the ledger not ahead of the history. Reads every page, so it takes time
  /// on a large journal.
  ///
  /// The checks run in one read transaction, which sees one state of the file: what a leader
  /// commits meanwhile (on a journal opened with ``init(readingAt:)``) is either wholly seen
  /// or not at all, and the journal's sequences are read again in it.
  ///
  /// - Parameter progress: called before each check with a line to show.
  public func verify(progress: (String) -> Void = { _ in }) throws(JournalError) -> Verification {
    try withSession { (session) throws(JournalError) -> Verification in
      var result = Verification(problems: [], checks: [])
      /// Runs the check `name`; returns whether it found no problem.
      @discardableResult
      func check(_ name: String, _ body: () throws(SQLiteError) -> [String]) -> Bool {
        progress("verify: \(name)...")
        result.checks.append(name)
        do throws(SQLiteError) {
          let problems = try body()
          result.problems += problems
          return problems.isEmpty
        } catch {
          result.problems.append("\(name) failed: \(error)")
          return false
        }
      }
      let connection = session.connection
      // Read before the transaction: what it then sees was committed at least up to the mark.
      let mark = Result { () throws(JournalError) in
        try HighWaterMarkFile.read(journalPath: session.path)
      }
      try session.sqlite { () throws(SQLiteError) in
        try connection.transaction(.deferred) { () throws(SQLiteError) in
          check("integrity_check") { () throws(SQLiteError) -> [String] in
            var lines: [String] = []
            try connection.statement("PRAGMA integrity_check(100)").run {
              (row: SQLiteStatement) throws(SQLiteError) in
              while try row.step() { lines.append(row.text(at: 0)) }
            }
            return lines == ["ok"] ? [] : lines.map { "integrity_check: \($0)" }
          }
          check("file size") { () throws(SQLiteError) -> [String] in
            try session.fileSizeProblems()
          }
          check("meta") { () throws(SQLiteError) -> [String] in
            try session.metaProblems()
          }
          // The checks after this one count with the sequences it reads: they run only when
          // every sequence is one a journal can hold.
          let inRange = check("sequences") { () throws(SQLiteError) -> [String] in
            do throws(SQLiteError) {
              try session.reloadCounters()
              return []
            } catch  where error.isCorruption {
              return ["sequences: \(error.message)"]
            }
          }
          guard inRange else { return }
          check("deltas gapless") { () throws(SQLiteError) -> [String] in
            try session.gapProblems()
          }
          check("deltas whole") { () throws(SQLiteError) -> [String] in
            try session.groupingProblems()
          }
          check("hash chain") { () throws(SQLiteError) -> [String] in
            try session.chainProblems()
          }
          check("snapshot") { () throws(SQLiteError) -> [String] in
            try session.snapshotProblems()
          }
          check("ledger") { () throws(SQLiteError) -> [String] in
            try session.ledgerProblems()
          }
          check("high-water mark") { () throws(SQLiteError) -> [String] in
            try session.markProblems(mark)
          }
        }
      }
      return result
    }
  }
}

extension JournalSession {
  /// Whether the history reaches the ``HighWaterMark`` beside the journal, when there is one
  /// (a copy of the journal without its mark, a backup, has none to check).
  package func markProblems(
    _ mark: Result<HighWaterMarkFile.Content?, JournalError>
  ) throws(SQLiteError) -> [String] {
    let advice = ": a leader starting on this journal mints a new epoch (followers resync)"
    switch mark {
    case .failure(let error):
      return ["high-water mark: cannot be read (\(error))"]
    case .success(nil), .success(.empty):
      return []
    case .success(.damaged):
      return [
        "high-water mark: the mark file is damaged, so the journal cannot be shown "
          + "complete" + advice
      ]
    case .success(.mark(let mark)):
      guard let epoch = try metaInteger(JournalSchema.epochKey) else { return [] }
      let loss = mark.judge(
        epoch: Epoch(rawValue: UInt64(bitPattern: epoch)), sequence: lastSequence,
        tip: try chainTip(), boot: currentBootIdentity() ?? "unknown")
      return loss.map { ["high-water mark: \($0.reason)" + advice] } ?? []
    }
  }

  /// Whether the file holds whole pages: SQLite reads the missing end of a cut file as zeros,
  /// which `integrity_check` does not notice when they fall inside a record's data.
  package func fileSizeProblems() throws(SQLiteError) -> [String] {
    let pageSize = Int(try connection.integer("PRAGMA page_size") ?? 0)
    let bytes = fileSize(path)
    guard pageSize > 0, bytes % pageSize != 0 else { return [] }
    return [
      "file size: \(bytes) bytes is not a whole number of \(pageSize)-byte pages (the file was "
        + "cut short, or written past its end)"
    ]
  }

  /// Whether the format, version and epoch records are there.
  package func metaProblems() throws(SQLiteError) -> [String] {
    var problems: [String] = []
    if try metaText(JournalSchema.formatKey) != JournalSchema.formatValue {
      problems.append("meta: the format record is missing or wrong")
    }
    if try metaInteger(JournalSchema.versionKey) != JournalSchema.version {
      problems.append("meta: the format version is missing or not \(JournalSchema.version)")
    }
    if try metaInteger(JournalSchema.epochKey) == nil {
      problems.append("meta: no epoch is stored")
    }
    if try metaInteger(JournalSchema.forgottenThroughKey) == nil {
      problems.append("meta: the ledger's forgotten-through sequence is not stored")
    }
    if try metaInteger(JournalSchema.chainBaseKey) == nil {
      problems.append("meta: the hash chain's base is not stored")
    }
    return problems
  }

  /// Where the stored deltas skip sequences (at most 20 places listed).
  package func gapProblems() throws(SQLiteError) -> [String] {
    var problems: [String] = []
    let gaps = try connection.statement(
      """
      SELECT previous, sequence FROM (
        SELECT sequence, lag(sequence) OVER (ORDER BY sequence) AS previous FROM deltas
      ) WHERE previous IS NOT NULL AND sequence != previous + 1 LIMIT 20
      """)
    try gaps.run { (row: SQLiteStatement) throws(SQLiteError) in
      while try row.step() {
        let previous = try row.sequence(at: 0, in: "deltas")
        let next = try row.sequence(at: 1, in: "deltas")
        // A damaged index can return rows out of order: `next` is then not above `previous`.
        problems.append(
          next > previous
            ? "deltas: gap after sequence \(previous): the next is \(next) "
              + "(\(previous + 1)...\(next - 1) missing)"
            : "deltas: sequence \(next) is stored after \(previous): the table's order is damaged")
      }
    }
    return problems
  }

  /// Where a delta of several actions is cut: rows with an empty patch (which continue into
  /// the next row's delta) after the last row that carries a patch, or at the latest
  /// snapshot's sequence.
  package func groupingProblems() throws(SQLiteError) -> [String] {
    var problems: [String] = []
    try connection.statement(
      """
      SELECT min(sequence), max(sequence) FROM deltas WHERE sequence > coalesce(
        (SELECT max(sequence) FROM deltas WHERE length(patch) > 0), 0)
      """
    ).run { (row: SQLiteStatement) throws(SQLiteError) in
      guard try row.step(), !row.isNull(at: 0) else { return }
      problems.append(
        "deltas: the rows of sequences \(row.uint64(at: 0))...\(row.uint64(at: 1)) have empty "
          + "patches but no later row closes their delta: the history ends inside a delta")
    }
    if let snapshot = snapshotSequence, let insideDelta = try snapshotInsideDelta(snapshot) {
      problems.append("snapshot: " + insideDelta)
    }
    return problems
  }

  /// Whether a snapshot is present whenever deltas are, and the deltas reach it.
  package func snapshotProblems() throws(SQLiteError) -> [String] {
    let oldest = try sequence("SELECT min(sequence) FROM deltas", in: "deltas")
    guard let snapshot = snapshotSequence else {
      return oldest == nil ? [] : ["snapshot: deltas are stored but no snapshot to replay onto"]
    }
    if let oldest, oldest > snapshot + 1 {
      return [
        "snapshot: the latest snapshot is at \(snapshot) but the oldest delta is \(oldest) "
          + "(\(snapshot + 1)...\(oldest - 1) missing)"
      ]
    }
    do throws(SQLiteError) {
      _ = try latestSnapshot()
    } catch  where error.isCorruption {
      return ["snapshot: \(error.message)"]
    }
    return []
  }

  /// Whether the ledger names a sequence after the last one stored, or does not read.
  package func ledgerProblems() throws(SQLiteError) -> [String] {
    let ahead =
      try connection.integer(
        "SELECT count(*) FROM ledger WHERE last_sequence > ?1", binding: lastSequence) ?? 0
    var problems =
      ahead == 0 ? [] : ["ledger: \(ahead) client(s) name a sequence after the last one stored"]
    do throws(SQLiteError) {
      _ = try ledgerEntries()
    } catch  where error.isCorruption {
      problems.append("ledger: \(error.message)")
    }
    return problems
  }
}
