import TandemProtocol

/// What a leader's session writes in the file when it starts (see
/// ``JournalSession/startIfNeeded()``).
package struct PendingStart {
  /// The durability the leader opened the journal with.
  package var durability: FileDurability
  /// The machine's boot id (or "unknown"), recorded as the session's.
  package var boot: String
  /// The format version of an older journal, upgraded in the same transaction; nil for one of
  /// this build's format.
  package var upgradesFrom: Int64?
}

extension JournalSession {
  /// Starts the leader session unless it has started: in one transaction, upgrades an older
  /// journal, reads the recovery with every check of ``Journal/recover()``, then writes the
  /// session record (the format, the epoch, and the session marked open with its durability
  /// and boot), synced whatever the durability. When a check or a write fails, the transaction
  /// rolls back: nothing is written to a journal whose history does not validate.
  ///
  /// - Returns: the recovery it read, or nil when the session had started (or is read-only).
  package func startIfNeeded() throws(JournalError) -> JournalRecovery? {
    guard let pending = pendingStart else { return nil }
    let connection = connection
    let path = path
    // Synced even under normal durability: the mark must outlive a crash of the machine.
    try sqlite { () throws(SQLiteError) in try connection.execute("PRAGMA synchronous = FULL") }
    defer {
      _ = try? connection.execute("PRAGMA synchronous = \(pending.durability.synchronousPragma)")
    }
    let recovery = try connection.transaction(failing: { JournalError(path: path, $0) }) {
      () throws(JournalError) -> JournalRecovery in
      if let version = pending.upgradesFrom {
        try sqlite { () throws(SQLiteError) in
          if version == 1 { try connection.execute(JournalSchema.addRejectionColumns) }
          if version <= 3 { try connection.execute(JournalSchema.addGenerationColumns) }
          if version <= 6 { try connection.execute(JournalSchema.addKeyColumns) }
          if version <= 4 {
            try connection.execute(JournalSchema.addChainColumn)
            try fillChain()
          }
          if version <= 5 { try connection.execute(JournalSchema.addSchemaColumn) }
          try connection.execute(JournalSchema.upgradeToCurrent)
        }
      }
      let recovery = try readRecovery()
      lastChain = try sqlite { () throws(SQLiteError) -> UInt64 in try chainTip() }
      try sqlite { () throws(SQLiteError) in
        try setMeta(JournalSchema.formatKey, JournalSchema.formatValue)
        try setMeta(JournalSchema.epochKey, Int64(bitPattern: epoch.rawValue))
        try setMeta(JournalSchema.sessionOpenKey, 1)
        try setMeta(JournalSchema.sessionDurabilityKey, pending.durability.durability.rawValue)
        try setMeta(JournalSchema.sessionBootKey, pending.boot)
        try setMeta(JournalSchema.keepsMarkKey, 1)
      }
      return recovery
    }
    pendingStart = nil
    try writeMark()
    return recovery
  }

  /// Prepares a write: traps when the session is read-only (writing through
  /// ``Journal/init(readingAt:)`` is a programmer error), and starts the leader session first
  /// when it has not started, so a write never goes to a journal whose history does not
  /// validate.
  package func prepareToWrite() throws(JournalError) {
    precondition(lock != nil, "Journal \(path) was opened for reading; it cannot be written")
    _ = try startIfNeeded()
  }
}
