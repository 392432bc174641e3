import TandemProtocol

/// The lease's table in the shared journal's database: one row, changed by one statement per
/// call, with a trigger that notifies `tandem_lease` listeners of every change; and the table
/// of the leader processes sharing the journal, one row per leader id, without a trigger.
enum PostgresLeaseSchema {
  /// The channel of the lease's notifications.
  static let channel = "tandem_lease"

  /// The advisory lock key that serializes the creation of Tandem's tables (`CREATE ... IF NOT
  /// EXISTS` races between two sessions otherwise).
  static let setupLock: Int64 = 0x7461_6e64_656d  // "tandem"

  /// Creates the tables and the lease's trigger when they are missing; idempotent, so that a
  /// database made by an older version gains the leaders' table at the next start.
  static let create = """
    CREATE TABLE IF NOT EXISTS tandem_lease (
      id int PRIMARY KEY CHECK (id = 1),
      holder text NOT NULL,
      control text NOT NULL,
      updates text NOT NULL,
      fencing_epoch bigint NOT NULL CHECK (fencing_epoch > 0),
      expires_at timestamptz NOT NULL
    );
    CREATE OR REPLACE FUNCTION tandem_lease_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('tandem_lease', '');
      RETURN NULL;
    END $$;
    CREATE OR REPLACE TRIGGER tandem_lease_changed
      AFTER INSERT OR UPDATE OR DELETE ON tandem_lease
      FOR EACH ROW EXECUTE FUNCTION tandem_lease_notify();
    CREATE TABLE IF NOT EXISTS tandem_leaders (
      id text PRIMARY KEY,
      control text NOT NULL,
      updates text NOT NULL,
      role text NOT NULL,
      seen_at timestamptz NOT NULL
    );
    """

  /// The columns every statement returns, read by ``record(_:)``: the time left is the
  /// database's, in microseconds.
  static let columns = """
    holder, control, updates, fencing_epoch,
    (extract(epoch FROM (expires_at - clock_timestamp())) * 1000000)::int8
    """

  /// `SELECT`s the row.
  static let current = "SELECT \(columns) FROM tandem_lease WHERE id = 1"

  /// Takes the lease ($1 holder, $2 control, $3 updates, $4 length in microseconds) when the
  /// row is missing or expired, one fencing epoch above the last. Two racing acquirers
  /// serialize on the row: the second sees the first's unexpired lease and takes nothing.
  static let acquire = """
    INSERT INTO tandem_lease AS l (id, holder, control, updates, fencing_epoch, expires_at)
    VALUES (1, $1, $2, $3, 1, clock_timestamp() + $4::int8 * interval '1 microsecond')
    ON CONFLICT (id) DO UPDATE SET
      holder = excluded.holder, control = excluded.control, updates = excluded.updates,
      fencing_epoch = l.fencing_epoch + 1,
      expires_at = clock_timestamp() + $4::int8 * interval '1 microsecond'
    WHERE l.expires_at <= clock_timestamp()
    RETURNING \(columns)
    """

  /// Extends the lease of $1 with fencing epoch $2 by $3 microseconds from now, if it still runs.
  static let renew = """
    UPDATE tandem_lease SET expires_at = clock_timestamp() + $3::int8 * interval '1 microsecond'
    WHERE id = 1 AND holder = $1 AND fencing_epoch = $2 AND expires_at > clock_timestamp()
    RETURNING \(columns)
    """

  /// Ends the lease of $1 with fencing epoch $2 now, if it still runs.
  static let release = """
    UPDATE tandem_lease SET expires_at = clock_timestamp()
    WHERE id = 1 AND holder = $1 AND fencing_epoch = $2 AND expires_at > clock_timestamp()
    """

  /// Records leader $1 (control $2, updates $3, role $4) as seen now, and deletes the other
  /// leaders not seen for $5 microseconds.
  static let announce = """
    WITH forgotten AS (
      DELETE FROM tandem_leaders
      WHERE id <> $1 AND seen_at < clock_timestamp() - $5::int8 * interval '1 microsecond'
    )
    INSERT INTO tandem_leaders (id, control, updates, role, seen_at)
    VALUES ($1, $2, $3, $4, clock_timestamp())
    ON CONFLICT (id) DO UPDATE SET
      control = excluded.control, updates = excluded.updates, role = excluded.role,
      seen_at = excluded.seen_at
    """

  /// The leaders other than $1 seen within the last $2 microseconds, by id, each with the
  /// microseconds since it was seen (the database's clock).
  static let leaders = """
    SELECT id, control, updates, role,
      (extract(epoch FROM (clock_timestamp() - seen_at)) * 1000000)::int8
    FROM tandem_leaders
    WHERE id <> $1 AND seen_at >= clock_timestamp() - $2::int8 * interval '1 microsecond'
    ORDER BY id
    """

  /// The leaders in `result`, which ran ``leaders``.
  static func presences(_ result: PostgresResult) -> [LeaderPresence] {
    (0..<result.count).map { row in
      LeaderPresence(
        id: result.string(row, 0), control: result.string(row, 1),
        updates: result.string(row, 2), role: result.string(row, 3),
        sinceSeen: .microseconds(max(result.int64(row, 4) ?? 0, 0)))
    }
  }

  /// Locks the row against acquisitions until the end of the transaction (`FOR SHARE`:
  /// appenders of one holder do not wait for one another) and returns it.
  static let lockForWrite = "SELECT \(columns) FROM tandem_lease WHERE id = 1 FOR SHARE"

  /// The record in row `row` of `result`, which ran a statement returning ``columns``.
  static func record(_ result: PostgresResult, row: Int = 0) -> LeaseRecord? {
    guard row < result.count, let epoch = result.int64(row, 3), let micros = result.int64(row, 4)
    else { return nil }
    return LeaseRecord(
      holder: result.string(row, 0), control: result.string(row, 1),
      updates: result.string(row, 2), fencingEpoch: UInt64(max(epoch, 0)),
      remaining: .microseconds(micros))
  }

  /// `duration` in whole microseconds (at least 1), for the statements' lengths.
  static func microseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
  }
}
