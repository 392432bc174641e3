import TandemJournal
import TandemProtocol
import ZeroMQ

/// Why a ``Leader`` could not start.
public enum LeaderError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The configured endpoint is not a ZeroMQ endpoint (`tcp://host:port`, `ipc://path`,
  /// `inproc://name`).
  case invalidEndpoint(String)
  /// A socket could not bind its endpoint: another process holds the port, the address is not
  /// this host's, or the `ipc` path cannot be made. `cause` is ZeroMQ's error.
  case cannotBind(endpoint: String, cause: ZMQError)
  /// The journal could not be opened, recovered or started (held by another leader, damaged,
  /// of an incompatible version, on a file system that fails): its message says what to do.
  case journal(JournalError)
  /// The store's initial state does not encode as canonical JSON (a new journal's base).
  case unencodableState(reason: String)
  /// The leader's I/O thread or its sockets could not be made.
  case cannotStart(ZMQError)
  /// The journal's history does not rebuild a state: the snapshot or a delta is damaged, or the
  /// state type changed incompatibly since it was written.
  case unreplayableJournal(path: String, sequence: UInt64, reason: String)
  /// The leader's key pair or its key store could not be read (see ``LeaderSecurity``).
  case keys(KeyStoreError)
  /// A ``StandbyLeader`` was configured without a PostgreSQL journal (`location` names what it
  /// was given): standby leaders share their journal and its lease in one database.
  case standbyNeedsSharedJournal(location: String)

  public var description: String {
    switch self {
    case .invalidEndpoint(let text):
      "'\(text)' is not an endpoint: use tcp://HOST:PORT (PORT may be *), ipc://PATH or inproc://NAME"
    case .cannotBind(let endpoint, let cause):
      "cannot bind \(endpoint): \(cause.message)"
    case .journal(let error):
      error.description
    case .unencodableState(let reason):
      "the store's initial state does not encode as JSON: \(reason)"
    case .cannotStart(let error):
      "cannot start the leader's I/O thread: \(error)"
    case .keys(let error):
      "the leader's CURVE keys: \(error)"
    case .standbyNeedsSharedJournal(let location):
      "a standby leader shares its journal with the other leaders in a PostgreSQL database, "
        + "and \(location) is not one: give --journal postgres://USER@HOST/DATABASE (or "
        + "TANDEM_JOURNAL_URL)"
    case .unreplayableJournal(let path, let sequence, let reason):
      "the journal \(path) does not replay at sequence \(sequence): \(reason). The leader will "
        + "not start over existing history: check it with 'tandem journal verify --db \(path)', "
        + "restore a backup, or run the build whose state type wrote it (keep the file: the "
        + "history before that sequence may be intact)"
    }
  }
}
