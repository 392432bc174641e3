/// How much of the leader's history survives a crash: the promise behind an acknowledgement.
///
/// Every setting keeps the journal consistent (a commit is all or nothing); they differ in which
/// failures an acknowledged commit survives and in what each commit costs.
///
/// ```swift
/// let journal = try Journal(path: "/var/lib/app/leader.journal",
///                           configuration: .init(durability: .full))
/// ```
public enum Durability: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Synced at every commit: SQLite WAL with `PRAGMA synchronous = FULL`, so the write-ahead log
  /// is flushed to the disk (`fsync`) before a commit returns. An acknowledged action survives
  /// a crash of the process, of the operating system and a power loss (given a disk that honours
  /// `fsync`). Costs one `fsync` per commit, which group commit shares among a batch. After a
  /// machine restart that interrupted a session, the journal still mints a new epoch: its
  /// high-water mark cannot show the history complete (see the article "High-water mark").
  case full
  /// Survives a crash of the process, not of the machine: SQLite WAL with
  /// `PRAGMA synchronous = NORMAL`, so a commit is written to the log in the operating system's
  /// cache and synced only at checkpoints. `kill -9` of the leader loses nothing acknowledged;
  /// a power loss or kernel crash may lose the last commits (never part of one). The journal
  /// notices a machine restart after such a session and mints a new epoch, so followers resync.
  case normal
  /// No journal at all: the leader keeps its history in memory only and starts a new epoch,
  /// from its initial state, at every start. ``Journal`` refuses to open a file with it.
  case off

  /// The setting's name: `full`, `normal` or `off`.
  public var description: String { rawValue }
}
