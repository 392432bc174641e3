import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension JournalSession {
  /// Opens (or creates) the journal at `path` for a leader: takes the lock, checks or creates
  /// the format, applies the durability settings and decides the epoch. It writes nothing to an
  /// existing journal: the session record waits for ``startIfNeeded()``, which checks the
  /// history first (an older journal starts here, to be upgraded in that transaction).
  package static func openForWriting(
    path: String, configuration: Journal.Configuration
  ) throws(JournalError) -> JournalSession {
    guard let durability = configuration.durability.fileSetting else {
      preconditionFailure("Journal: durability .off keeps no journal; do not open one")
    }
    try checkNotASpecialFile(path: path)
    let lock = try JournalLock(journalPath: path)
    let markFile = try HighWaterMarkFile(journalPath: path)
    try checkSharedMemory(journalPath: path, writing: true)
    // Refuses a file that is not an SQLite database before SQLite opens it.
    _ = try checkHeader(path: path)
    let connection: SQLiteConnection
    do throws(SQLiteError) {
      connection = try SQLiteConnection(path: path, access: .readWriteCreate)
      try connection.execute("PRAGMA busy_timeout = 1000")
    } catch {
      throw JournalError(path: path, error)
    }
    let format = try prepareFormat(connection, path: path)
    let session: JournalSession
    do throws(SQLiteError) {
      let mode = try connection.text("PRAGMA journal_mode = WAL")
      guard mode == "wal" else {
        throw SQLiteError(
          code: 1, message: "journal_mode is \(mode ?? "unknown"), not wal",
          call: "PRAGMA journal_mode = WAL")
      }
      try connection.execute(
        """
        PRAGMA synchronous = \(durability.synchronousPragma);
        PRAGMA wal_autocheckpoint = \(configuration.checkpointPages);
        PRAGMA journal_size_limit = \(configuration.walSizeLimit);
        """)
      if let limit = configuration.maximumFileBytes { try connection.limitFileSize(to: limit) }
      session = try JournalSession(
        path: path, connection: connection, lock: lock, durability: durability.durability,
        epoch: Epoch(rawValue: 0), epochContinuity: .continued)
    } catch {
      throw JournalError(path: path, error)
    }
    let boot = currentBootIdentity() ?? "unknown"
    session.markFile = markFile
    session.boot = boot
    try session.decideEpoch(
      created: format.created, older: format.olderVersion != nil, boot: boot)
    session.pendingStart = PendingStart(
      durability: durability, boot: boot, upgradesFrom: format.olderVersion)
    if format.olderVersion != nil { _ = try session.startIfNeeded() }
    return session
  }

  /// Opens the journal at `path` read-only, without the leader lock (a leader may be running);
  /// for salvage (`damaged`), also when its sequence counters do not read.
  package static func openForReading(
    path: String, damaged: Bool = false
  ) throws(JournalError) -> JournalSession {
    try checkNotASpecialFile(path: path)
    guard try checkHeader(path: path) else { throw .notFound(path: path) }
    try checkSharedMemory(journalPath: path, writing: false)
    do {
      let connection = try SQLiteConnection(path: path, access: .readOnly)
      try connection.execute("PRAGMA busy_timeout = 5000")
      try validate(connection, path: path)
      let session = try JournalSession(
        path: path, connection: connection, lock: nil, durability: nil, epoch: Epoch(rawValue: 0),
        epochContinuity: .continued, countersRequired: !damaged)
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

  /// Refuses a directory or a special file at `path` before anything opens it (opening a FIFO
  /// would wait for a writer for good) or puts a lock file beside it.
  private static func checkNotASpecialFile(path: String) throws(JournalError) {
    var status = stat()
    guard stat(path, &status) == 0 else { return }  // missing: the open says what it means
    switch status.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR: throw .notAJournal(path: path, detail: "it is a directory")
    default: throw .notAJournal(path: path, detail: "it is a FIFO, device or socket, not a file")
    }
  }

  /// Refuses a shared-memory index (`<journal>-shm`) that SQLite could not write: it maps the
  /// file, and one it cannot open for writing (immutable, append-only, or not the leader's to
  /// write) it maps read-only, where SQLite answers a leader's first write with a misleading
  /// "readonly database" and a write through the mapping is a SIGBUS on some file systems.
  /// A reader (who may run as another user beside a leader) is refused only for an immutable
  /// or append-only file (`EPERM`). A missing index is SQLite's to create.
  private static func checkSharedMemory(journalPath: String, writing: Bool) throws(JournalError) {
    let path = journalPath + "-shm"
    let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor < 0 else {
      close(descriptor)
      return
    }
    let error = errno
    if error == ENOENT || (!writing && error != EPERM) { return }
    throw .system(path: path, call: "open (SQLite maps this index and must write it)", errno: error)
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

  /// What ``prepareFormat(_:path:)`` found in the file.
  private enum FoundFormat: Equatable {
    /// A journal it created, of this epoch.
    case created(Epoch)
    /// A journal of this build's format.
    case current
    /// A journal of an older format version, to upgrade when the session starts.
    case older(version: Int64)

    package var created: Epoch? {
      guard case .created(let epoch) = self else { return nil }
      return epoch
    }

    package var olderVersion: Int64? {
      guard case .older(let version) = self else { return nil }
      return version
    }
  }

  /// Checks an existing journal's format, or creates a journal in an empty database in one
  /// transaction.
  ///
  /// Empty means without a single page: a missing or 0-byte file, or one whose creation was
  /// interrupted and which SQLite truncates back to nothing on this open (rolling back its hot
  /// rollback journal). A database with pages is never taken for empty, even without a table:
  /// it is some other program's file, refused as not a journal.
  private static func prepareFormat(
    _ connection: SQLiteConnection, path: String
  ) throws(JournalError) -> FoundFormat {
    do {
      if try connection.integer("PRAGMA page_count") != 0 {
        if try connection.integer("PRAGMA application_id") == JournalSchema.applicationID,
          let version = try connection.integer("PRAGMA user_version"),
          (1..<JournalSchema.version).contains(version)
        {
          try validate(connection, path: path, version: version)
          return .older(version: version)
        }
        try validate(connection, path: path)
        return .current
      }
      let epoch = Epoch.random()
      try connection.execute(JournalSchema.prepareEmpty)
      try connection.transaction { () throws(SQLiteError) in
        try connection.execute(JournalSchema.create(epoch: epoch))
      }
      return .created(epoch)
    } catch let error as JournalError {
      throw error
    } catch let error as SQLiteError {
      throw JournalError(path: path, error)
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
  }

  /// Throws unless the database is a journal of format `version` (by default this build's) with
  /// every table present.
  private static func validate(
    _ connection: SQLiteConnection, path: String, version expected: Int64 = JournalSchema.version
  ) throws {
    let applicationID = try connection.integer("PRAGMA application_id") ?? 0
    guard applicationID == JournalSchema.applicationID else {
      let tableCount = try connection.integer("SELECT count(*) FROM sqlite_schema") ?? 0
      throw JournalError.notAJournal(
        path: path,
        detail: tableCount == 0
          ? "an SQLite database without tables; only a missing or empty (0-byte) file becomes "
            + "a new journal"
          : "an SQLite database with application id \(applicationID), not a Tandem journal")
    }
    let version = try connection.integer("PRAGMA user_version") ?? 0
    guard version == expected else {
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
    guard recorded == expected else {
      throw JournalError.incompatibleVersion(
        path: path, found: recorded, supported: JournalSchema.version)
    }
  }

  /// Sets the epoch: `created`'s for a journal just created, else the stored one, renewed when
  /// the history may have lost commits: the last session ran with `normal` durability, did not
  /// close the journal, and the machine has restarted since (`boot` differs); or the
  /// ``HighWaterMark`` beside the journal is damaged, missing (once the journal has kept one),
  /// or records more history than the file holds (see
  /// ``HighWaterMark/judge(epoch:sequence:tip:boot:)``). Writes nothing; the epoch is stored
  /// when the session starts.
  private func decideEpoch(
    created: Epoch?, older: Bool, boot: String
  ) throws(JournalError) {
    if let created {
      epoch = created
      epochContinuity = .minted(reason: "the journal is new")
      return
    }
    let (keepsMark, tip) = try sqlite { () throws(SQLiteError) -> (Bool, UInt64?) in
      guard let stored = try metaInteger(JournalSchema.epochKey) else {
        throw SQLiteError(code: 11, message: "the meta table holds no epoch", call: "open")
      }
      epoch = Epoch(rawValue: UInt64(bitPattern: stored))
      epochContinuity = .continued
      let wasOpen = try metaInteger(JournalSchema.sessionOpenKey) == 1
      let lastDurability = try metaText(JournalSchema.sessionDurabilityKey)
      let lastBoot = try metaText(JournalSchema.sessionBootKey)
      if wasOpen && lastDurability == Durability.normal.rawValue
        && (lastBoot != boot || boot == "unknown")
      {
        epochContinuity = .minted(
          reason: "the machine restarted after a leader with normal durability stopped "
            + "without closing the journal: its last commits may be lost")
      }
      let keepsMark = try metaInteger(JournalSchema.keepsMarkKey) == 1
      // A journal of an older format may have no chain yet: the mark's epoch and sequences
      // are checked, not its chain.
      return (keepsMark, older ? nil : try chainTip())
    }
    if epochContinuity == .continued, let markFile {
      let reason: String? =
        switch try markFile.read() {
        case .empty:
          // Written before marks were kept (nothing to compare), or a mark that was lost.
          keepsMark
            ? "the journal has no high-water mark (\(markFile.path) is missing or empty), so "
              + "it cannot be shown complete" : nil
        case .damaged:
          "its high-water mark (\(markFile.path)) is damaged, so the journal cannot be shown "
            + "complete"
        case .mark(let mark):
          mark.judge(
            epoch: epoch, sequence: lastSequence, tip: tip ?? mark.chain, boot: boot
          )?.reason
        }
      if let reason { epochContinuity = .minted(reason: reason) }
    }
    if epochContinuity != .continued { epoch = Epoch.random() }
  }

  /// Writes the high-water mark of the history as it stands (at session start, after a new
  /// epoch, and `clean` at a clean close), synced whatever the durability; nothing for a
  /// read-only session.
  package func writeMark(clean: Bool = false) throws(JournalError) {
    guard let markFile else { return }
    let mark = HighWaterMark(
      epoch: epoch, committed: lastSequence, intent: lastSequence, chain: lastChain,
      clean: clean, boot: boot)
    try markFile.write(mark, sync: true)
  }

  /// Marks the session closed cleanly and checkpoints the log into the database file; does
  /// nothing when the session never started (nothing was written).
  package func closeCleanly() {
    guard lock != nil, pendingStart == nil else { return }
    _ = try? connection.execute("PRAGMA synchronous = FULL")
    let closed: Void? = try? connection.transaction { () throws(SQLiteError) in
      try setMeta(JournalSchema.sessionOpenKey, 0)
    }
    _ = try? checkpoint(truncate: true)
    // A synced commit syncs the whole log, every commit before it too: the mark may say so.
    if closed != nil { _ = try? writeMark(clean: true) }
  }
}

/// The durability settings that open a file.
package enum FileDurability {
  case full, normal

  package var durability: Durability { self == .full ? .full : .normal }

  /// The `PRAGMA synchronous` value it sets.
  package var synchronousPragma: String { self == .full ? "FULL" : "NORMAL" }
}

extension Durability {
  /// The file setting, or nil for `.off`.
  package var fileSetting: FileDurability? {
    switch self {
    case .full: .full
    case .normal: .normal
    case .off: nil
    }
  }
}
