import TandemProtocol

/// The leadership lease of a shared journal, kept in its PostgreSQL database: one row of the
/// table `tandem_lease`, with the holder, its endpoints, the fencing epoch and the expiry; and
/// the leader processes sharing the journal, one row each in `tandem_leaders`, with the time
/// each last announced itself.
///
/// Every call is one statement, so one transaction, and every expiry is computed with the
/// database's `clock_timestamp()`: the leaders' clocks are never compared. Each acquisition
/// raises the fencing epoch by one; a ``PostgresJournal`` opened by the holder checks that
/// epoch under a row lock in the transaction of each write, so a deposed leader cannot commit.
/// Every change of the row notifies the channel `tandem_lease` (a trigger), which
/// ``waitForChange(timeout:)`` listens to on a connection of its own.
///
/// ```swift
/// let lease = try PostgresLease(connection: "postgres://tandem@db.internal/orders")
/// if let record = try lease.acquire(
///   holder: leaderID, control: control, updates: updates, length: .seconds(6))
/// {
///   // Renew every two seconds with record.fencingEpoch; stop at the first nil.
/// }
/// ```
public final class PostgresLease: LeaseStore {
  /// The connection string without its password.
  public let location: String
  private let connectionString: PostgresConnectionString
  private let commands: PostgresConnectionSlot
  private let listener: PostgresConnectionSlot

  /// Connects to the database at `connection` (a libpq URL or `key=value` string), creates
  /// the lease's and the leaders' tables when they are missing, and starts listening for
  /// changes of the lease.
  public init(connection: String) throws(JournalError) {
    let string: PostgresConnectionString
    do { string = try PostgresConnectionString(connection) } catch {
      throw .postgres(location: "(connection string)", error)
    }
    connectionString = string
    location = string.description
    let (commands, listener): (PostgresConnection, PostgresConnection)
    do {
      commands = try PostgresConnection(string)
      try Self.createSchema(on: commands)
      listener = try PostgresConnection(string)
      try listener.listen(PostgresLeaseSchema.channel)
    } catch {
      throw .postgres(location: string.description, error)
    }
    self.commands = PostgresConnectionSlot(commands, location: string)
    self.listener = PostgresConnectionSlot(listener, location: string) {
      (connection) throws(PostgresError) in try connection.listen(PostgresLeaseSchema.channel)
    }
  }

  /// Creates the lease's table and trigger, and the leaders' table, on `connection` unless
  /// they exist, serialized with other sessions doing the same by an advisory lock.
  package static func createSchema(on connection: PostgresConnection) throws(PostgresError) {
    try connection.transaction(wrap: { $0 }) { () throws(PostgresError) in
      try connection.exec(
        "SELECT pg_advisory_xact_lock($1)", [.int8(PostgresLeaseSchema.setupLock)])
      try connection.run(script: PostgresLeaseSchema.create)
    }
  }

  public func current() throws(JournalError) -> LeaseRecord? {
    try command { connection throws(PostgresError) in
      PostgresLeaseSchema.record(try connection.exec(PostgresLeaseSchema.current))
    }
  }

  public func acquire(
    holder: String, control: String, updates: String, length: Duration
  )
    throws(JournalError) -> LeaseRecord?
  {
    let micros = PostgresLeaseSchema.microseconds(length)
    return try command { connection throws(PostgresError) in
      PostgresLeaseSchema.record(
        try connection.exec(
          PostgresLeaseSchema.acquire,
          [.text(holder), .text(control), .text(updates), .int8(micros)]))
    }
  }

  public func renew(
    holder: String, fencingEpoch: UInt64, length: Duration
  )
    throws(JournalError) -> LeaseRecord?
  {
    let micros = PostgresLeaseSchema.microseconds(length)
    return try command { connection throws(PostgresError) in
      PostgresLeaseSchema.record(
        try connection.exec(
          PostgresLeaseSchema.renew,
          [.text(holder), .int8(Int64(clamping: fencingEpoch)), .int8(micros)]))
    }
  }

  public func release(holder: String, fencingEpoch: UInt64) throws(JournalError) {
    try command { connection throws(PostgresError) in
      _ = try connection.exec(
        PostgresLeaseSchema.release, [.text(holder), .int8(Int64(clamping: fencingEpoch))])
    }
  }

  public func waitForChange(timeout: Duration) throws(JournalError) {
    do {
      try listener.use { (connection, reopened) throws(PostgresError) in
        // Reopened: a change may have come while no connection listened, so the caller reads
        // the lease again at once.
        guard !reopened else { return }
        _ = try connection.waitForNotifications(timeout: timeout)
      }
    } catch {
      throw .postgres(location: location, error)
    }
  }

  public func announce(
    id: String, control: String, updates: String, role: String, forgettingAfter: Duration
  ) throws(JournalError) {
    let micros = PostgresLeaseSchema.microseconds(forgettingAfter)
    try command { connection throws(PostgresError) in
      _ = try connection.exec(
        PostgresLeaseSchema.announce,
        [.text(id), .text(control), .text(updates), .text(role), .int8(micros)])
    }
  }

  public func leaders(
    except id: String, seenWithin: Duration
  ) throws(JournalError) -> [LeaderPresence] {
    let micros = PostgresLeaseSchema.microseconds(seenWithin)
    return try command { connection throws(PostgresError) in
      PostgresLeaseSchema.presences(
        try connection.exec(PostgresLeaseSchema.leaders, [.text(id), .int8(micros)]))
    }
  }

  /// Runs `body` on the command connection, reconnecting first when the last one broke.
  private func command<T: Sendable>(
    _ body: (PostgresConnection) throws(PostgresError) -> T
  )
    throws(JournalError) -> T
  {
    do {
      return try commands.use { (connection, _) throws(PostgresError) in try body(connection) }
    } catch {
      throw .postgres(location: location, error)
    }
  }
}
