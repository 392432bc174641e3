#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension JournalSession {
  /// Opens (or creates) the journal at `path` for a leader: takes the lock, checks or creates
  /// the format, applies the durability settings and decides the epoch.
  static func openForWriting(
    path: String, configuration: Journal.Configuration
  ) throws(JournalError) -> JournalSession {
    guard let durability = configuration.durability.fileSetting else {
      preconditionFailure("Journal: durability .off keeps no journal; do not open one")
    }
    let lock = try JournalLock(journalPath: path)
    let existing = try checkHeader(path: path)
    let connection: SQLiteConnection
    do throws(SQLiteError) {
      connection = try SQLiteConnection(path: path, access: .readWriteCreate)
      try connection.execute("PRAGMA busy_timeout = 1000")
    } catch {
      throw JournalError(path: path, error)
    }
    let created = try prepareFormat(connection, path: path, existing: existing)
    do throws(SQLiteError) {
      let mode = try connection.text("PRAGMA journal_mode = WAL")
      guard mode == "wal" else {
        throw SQLiteError(
          code: 1, message: "journal_mode is \(mode ?? "unknown"), not wal",
          call: "PRAGMA journal_mode = WAL")
      }
      try connection.execute(
        """
        PRAGMA synchronous = FULL;
        PRAGMA wal_autocheckpoint = \(configuration.checkpointPages);
        PRAGMA journal_size_limit = \(configuration.walSizeLimit);
        """)
      if let limit = configuration.maximumFileBytes { try connection.limitFileSize(to: limit) }
    } catch {
      throw JournalError(path: path, error)
    }
    let (epoch, continuity) = try startSession(
      connection, path: path, durability: durability, created: created)
    do throws(SQLiteError) {
      try connection.execute("PRAGMA synchronous = \(durability.synchronousPragma)")
      return try JournalSession(
        path: path, connection: connection, lock: lock, durability: durability.durability,
        epoch: epoch, epochContinuity: continuity)
    } catch {
      throw JournalError(path: path, error)
    }
  }

  /// Opens the journal at `path` read-only, without the leader lock (a leader may be running).
  static func openForReading(path: String) throws(JournalError) -> JournalSession {
    guard try checkHeader(path: path) else { throw .notFound(path: path) }
    do {
      let connection = try SQLiteConnection(path: path, access: .readOnly)
      try connection.execute("PRAGMA busy_timeout = 5000")
      try validate(connection, path: path)
      let session = try JournalSession(
        path: path, connection: connection, lock: nil, durability: nil, epoch: Epoch(rawValue: 0),
        epochContinuity: .continued)
      guard let epoch = try session.metaInteger(JournalSchema.epochKey) else {
        throw JournalError.corrupt(path: path, detail: "the meta table holds no epoch")
      }
      session.epoch = Epoch(rawValue: UInt64(bitPattern: epoch))
      return session
    } catch let error as JournalError {
      throw error
    } catch let error as SQLiteError {
      throw JournalError(path: path, error)
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
  }

  /// Whether a non-empty file exists at `path`; throws when it is too short to be a database
  /// or does not start with SQLite's header.
  private static func checkHeader(path: String) throws(JournalError) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let error = errno
      if error == ENOENT { return false }
      throw .system(path: path, call: "open", errno: error)
    }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { throw .system(path: path, call: "pread", errno: errno) }
    if count == 0 { return false }
    guard header.starts(with: JournalSchema.sqliteHeader[..<min(count, 16)]) else {
      throw .notAJournal(path: path, detail: "not an SQLite database")
    }
    guard count == 100 else {
      throw .corrupt(
        path: path, detail: "truncated to \(count) bytes, shorter than an SQLite header")
    }
    return true
  }

  /// Checks an existing journal's format, or creates a journal in a new file in one
  /// transaction; returns the epoch of the journal it created, nil for an existing one.
  private static func prepareFormat(
    _ connection: SQLiteConnection, path: String, existing: Bool
  ) throws(JournalError) -> Epoch? {
    do {
      if existing {
        let applicationID = try connection.integer("PRAGMA application_id") ?? 0
        let tableCount = try connection.integer("SELECT count(*) FROM sqlite_schema") ?? 0
        if applicationID != 0 || tableCount > 0 {
          if applicationID == JournalSchema.applicationID,
            try connection.integer("PRAGMA user_version") == 1
          {
            try connection.transaction { () throws(SQLiteError) in
              try connection.execute(JournalSchema.upgradeFromVersion1)
            }
          }
          try validate(connection, path: path)
          return nil
        }
      }
      let epoch = Epoch.random()
      try connection.execute(JournalSchema.prepareEmpty)
      try connection.transaction { () throws(SQLiteError) in
        try connection.execute(JournalSchema.create(epoch: epoch))
      }
      return epoch
    } catch let error as JournalError {
      throw error
    } catch let error as SQLiteError {
      throw JournalError(path: path, error)
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
  }

  /// Throws unless the database is a journal of this build's format with every table present.
  private static func validate(_ connection: SQLiteConnection, path: String) throws {
    let applicationID = try connection.integer("PRAGMA application_id") ?? 0
    guard applicationID == JournalSchema.applicationID else {
      throw JournalError.notAJournal(
        path: path,
        detail: "an SQLite database with application id \(applicationID), not a Tandem journal")
    }
    let version = try connection.integer("PRAGMA user_version") ?? 0
    guard version == JournalSchema.version else {
      throw JournalError.incompatibleVersion(
        path: path, found: version, supported: JournalSchema.version)
    }
    var tables: Set<String> = []
    let list = try connection.statement("SELECT name FROM sqlite_schema WHERE type = 'table'")
    try list.run { (row: SQLiteStatement) throws(SQLiteError) in
      while try row.step() { tables.insert(row.text(at: 0)) }
    }
    for table in JournalSchema.tables where !tables.contains(table) {
      throw JournalError.corrupt(path: path, detail: "the \(table) table is missing")
    }
    let recorded = try connection.integer(
      "SELECT value FROM meta WHERE key = '\(JournalSchema.versionKey)'")
    guard let recorded else {
      throw JournalError.corrupt(path: path, detail: "the meta table holds no format version")
    }
    guard recorded == JournalSchema.version else {
      throw JournalError.incompatibleVersion(
        path: path, found: recorded, supported: JournalSchema.version)
    }
  }

  /// Reads the epoch (`created`'s for a journal just created) and marks the session open,
  /// synced whatever the durability.
  ///
  /// The epoch is renewed when the last session ran with `normal` durability, did not close
  /// the journal, and the machine has restarted since: its last commits may be lost.
  private static func startSession(
    _ connection: SQLiteConnection, path: String, durability: FileDurability, created: Epoch?
  ) throws(JournalError) -> (Epoch, EpochContinuity) {
    let probe: JournalSession
    do throws(SQLiteError) {
      probe = try JournalSession(
        path: path, connection: connection, lock: nil, durability: nil, epoch: Epoch(rawValue: 0),
        epochContinuity: .continued)
    } catch {
      throw JournalError(path: path, error)
    }
    return try probe.sqlite { () throws(SQLiteError) -> (Epoch, EpochContinuity) in
      let boot = currentBootIdentity() ?? "unknown"
      var continuity = EpochContinuity.continued
      var epoch: Epoch
      if let created {
        epoch = created
        continuity = .minted(reason: "the journal is new")
      } else if let stored = try probe.metaInteger(JournalSchema.epochKey) {
        epoch = Epoch(rawValue: UInt64(bitPattern: stored))
        let wasOpen = try probe.metaInteger(JournalSchema.sessionOpenKey) == 1
        let lastDurability = try probe.metaText(JournalSchema.sessionDurabilityKey)
        let lastBoot = try probe.metaText(JournalSchema.sessionBootKey)
        if wasOpen && lastDurability == Durability.normal.rawValue
          && (lastBoot != boot || boot == "unknown")
        {
          epoch = Epoch.random()
          continuity = .minted(
            reason: "the machine restarted after a leader with normal durability stopped "
              + "without closing the journal: its last commits may be lost")
        }
      } else {
        throw SQLiteError(code: 11, message: "the meta table holds no epoch", call: "open")
      }
      try connection.transaction { () throws(SQLiteError) in
        try probe.setMeta(JournalSchema.formatKey, JournalSchema.formatValue)
        try probe.setMeta(JournalSchema.epochKey, Int64(bitPattern: epoch.rawValue))
        try probe.setMeta(JournalSchema.sessionOpenKey, 1)
        try probe.setMeta(JournalSchema.sessionDurabilityKey, durability.durability.rawValue)
        try probe.setMeta(JournalSchema.sessionBootKey, boot)
      }
      return (epoch, continuity)
    }
  }

  /// Marks the session closed cleanly and checkpoints the log into the database file.
  func closeCleanly() {
    guard lock != nil else { return }
    _ = try? connection.execute("PRAGMA synchronous = FULL")
    _ = try? connection.transaction { () throws(SQLiteError) in
      try setMeta(JournalSchema.sessionOpenKey, 0)
    }
    _ = try? checkpoint(truncate: true)
  }
}

/// The durability settings that open a file.
enum FileDurability {
  case full, normal

  var durability: Durability { self == .full ? .full : .normal }

  /// The `PRAGMA synchronous` value it sets.
  var synchronousPragma: String { self == .full ? "FULL" : "NORMAL" }
}

extension Durability {
  /// The file setting, or nil for `.off`.
  var fileSetting: FileDurability? {
    switch self {
    case .full: .full
    case .normal: .normal
    case .off: nil
    }
  }
}
