import TandemProtocol

/// The hash chain over the `deltas` rows (``DeltaChain``): reading its values, filling it in
/// when an older journal is upgraded, and checking every row.
extension JournalSession {
  /// The chain's value at the newest row, or its base when no row is kept.
  package func chainTip() throws(SQLiteError) -> UInt64 {
    if let tip = try connection.integer("SELECT chain FROM deltas ORDER BY sequence DESC LIMIT 1") {
      return UInt64(bitPattern: tip)
    }
    return try chainBase() ?? 0
  }

  /// The chain's base: its value before the oldest row kept; nil when the record is missing.
  package func chainBase() throws(SQLiteError) -> UInt64? {
    try metaInteger(JournalSchema.chainBaseKey).map { UInt64(bitPattern: $0) }
  }

  /// The chain's value before the row of `sequence`: the `chain` of the row before it, or the
  /// base when `sequence` is the oldest row kept (or no row is); nil when neither is known (the
  /// row before is missing: a gap, which recovery reports on its own).
  package func chainBefore(_ sequence: UInt64) throws(SQLiteError) -> UInt64? {
    if sequence > 0,
      let previous = try connection.integer(
        "SELECT chain FROM deltas WHERE sequence = ?1", binding: sequence - 1)
    {
      return UInt64(bitPattern: previous)
    }
    let oldest = try self.sequence("SELECT min(sequence) FROM deltas", in: "deltas")
    guard oldest == nil || oldest == sequence else { return nil }
    return try chainBase()
  }

  /// Computes and stores every row's `chain`, from the base on, in one pass (the upgrade of a
  /// journal written before the chain; inside the upgrade's transaction).
  package func fillChain() throws(SQLiteError) {
    var chain = try chainBase() ?? 0
    var links: [(UInt64, UInt64)] = []
    try connection.statement(JournalSchema.selectDeltasFrom).run {
      (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(UInt64(0), at: 1)
      while try row.step() {
        let sequence = try row.sequence(at: 0, in: "deltas")
        chain = DeltaChain.link(
          previous: chain, sequence: sequence,
          origin: Origin(
            client: row.text(at: 1), number: row.uint64(at: 2), generation: row.uint64(at: 5),
            key: row.text(at: 7)),
          tag: row.text(at: 3), patch: row.blob(at: 4))
        links.append((sequence, chain))
      }
    }
    let update = try connection.statement(JournalSchema.setChain)
    for (sequence, chain) in links {
      try update.run { (row: SQLiteStatement) throws(SQLiteError) in
        try row.bind(sequence, at: 1)
        try row.bind(chain, at: 2)
        _ = try row.step()
      }
    }
  }

  /// The rows that do not match the chain, each checked against the `chain` stored in the row
  /// before it (or the base; not across a gap): the first of them is where the damage starts.
  package func chainProblems() throws(SQLiteError) -> [String] {
    guard var previous = try chainBase() else {
      return ["deltas: the hash chain's base record is missing"]
    }
    var broken: [UInt64] = []
    var count = 0
    var previousRow: UInt64?
    try connection.statement(JournalSchema.selectDeltasFrom).run {
      (row: SQLiteStatement) throws(SQLiteError) in
      try row.bind(UInt64(0), at: 1)
      while try row.step() {
        let sequence = try row.sequence(at: 0, in: "deltas")
        let stored = row.uint64(at: 6)
        let expected = DeltaChain.link(
          previous: previous, sequence: sequence,
          origin: Origin(
            client: row.text(at: 1), number: row.uint64(at: 2), generation: row.uint64(at: 5),
            key: row.text(at: 7)),
          tag: row.text(at: 3), patch: row.blob(at: 4))
        // Across a gap (which the gap check reports) the link is not checked.
        let follows = previousRow.map { sequence == $0 + 1 } ?? true
        previousRow = sequence
        if follows, expected != stored {
          count += 1
          if broken.count < 20 { broken.append(sequence) }
        }
        previous = stored
      }
    }
    guard let first = broken.first else { return [] }
    let listed = broken.map(String.init).joined(separator: ", ")
    return [
      "deltas: " + DeltaChain.mismatch(at: first)
        + " (\(count) row(s) do not match: \(listed)\(count > broken.count ? ", ..." : ""))"
    ]
  }
}
