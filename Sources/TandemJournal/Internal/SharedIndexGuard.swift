import CSharedMemoryGuard

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches the shared-memory index (`<database>-shm`) of one connection that writes, for a
/// write through SQLite's mapping of it that the file system refused.
///
/// SQLite maps the index and writes it through the mapping. When the file can no longer be
/// written while mapped (made immutable or append-only, or its file system failed), such a
/// write is a SIGBUS, not an error code: without a handler the process dies inside SQLite. The
/// process-wide handler of `CSharedMemoryGuard` turns it into a recorded fault and gives the
/// process a private copy of the page, so the statement that faulted completes and the
/// connection's own view stays coherent, but the index is no longer shared with other
/// processes. From then on this guard refuses every write transaction on the connection, with a
/// file-system error naming the index; the history committed so far is intact (the write-ahead
/// log and the database file are written with `write`, not through a mapping), and the leader
/// goes on serving it while it reports itself degraded. Reopening once the file is fixed (a
/// restart) starts from the files and rebuilds the index.
///
/// Why not a mode without a mapped index (`locking_mode = EXCLUSIVE`): it keeps the index in
/// the process's heap, but then no other process may even read the journal while the leader
/// runs, and `tandem journal inspect`, `verify` and the online backup must.
struct SharedIndexGuard {
  /// The index's path as the kernel names the mapping: the database's directory resolved.
  let indexPath: String
  /// Faults recorded for ``indexPath`` before this connection opened (a file an earlier
  /// connection of this process mapped), not this connection's.
  private let faultsAtOpen: UInt64
  /// The process's total of handled faults when last looked at: a single atomic load tells
  /// that nothing happened since.
  private var totalSeen: UInt64
  /// Whether a fault on this connection's index has been seen.
  private(set) var isBroken = false

  /// Installs the process's handler (once) and starts watching the index of `databasePath`.
  init(databasePath: String) {
    _ = tandem_shm_guard_install()
    indexPath = Self.resolvedIndexPath(databasePath: databasePath)
    faultsAtOpen = tandem_shm_guard_faults(indexPath)
    totalSeen = tandem_shm_guard_total_faults()
  }

  /// Throws, from the first fault on this index on, instead of letting a write transaction
  /// begin.
  mutating func checkWritable() throws(SQLiteError) {
    if !isBroken {
      let total = tandem_shm_guard_total_faults()
      guard total != totalSeen else { return }
      totalSeen = total
      guard tandem_shm_guard_faults(indexPath) > faultsAtOpen else { return }
      isBroken = true
    }
    throw SQLiteError(
      code: 10 | (21 << 8),  // SQLITE_IOERR_SHMMAP
      message: "a write through SQLite's mapping of its shared-memory index \(indexPath) "
        + "faulted (SIGBUS): the file can no longer be written, so this leader stores nothing "
        + "more; what it committed is intact in the journal",
      call: "BEGIN IMMEDIATE", systemErrno: Self.indexErrno(indexPath))
  }

  /// Why the index cannot be written now, as an error number: what opening it for writing
  /// says (`EPERM` for an immutable or append-only file), else `EIO`.
  private static func indexErrno(_ path: String) -> Int32 {
    let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return errno }
    close(descriptor)
    return EIO
  }

  /// `<directory resolved>/<name>-shm`: the kernel shows a mapping by its resolved path.
  private static func resolvedIndexPath(databasePath: String) -> String {
    let slash = databasePath.lastIndex(of: "/")
    let directory = slash.map { String(databasePath[..<$0]) } ?? "."
    let name = slash.map { String(databasePath[databasePath.index(after: $0)...]) } ?? databasePath
    guard let resolved = realpath(directory.isEmpty ? "/" : directory, nil) else {
      return databasePath + "-shm"
    }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return (base == "/" ? "" : base) + "/" + name + "-shm"
  }
}
