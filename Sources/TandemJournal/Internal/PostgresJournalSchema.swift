/// The shared journal's tables in PostgreSQL, beside the lease's (``PostgresLeaseSchema``):
/// the same records as the SQLite journal's (see the PostgreSQL journal article).
enum PostgresJournalSchema {
  /// The format version of the tables, in `tandem_meta`.
  static let version: Int64 = 1

  /// Creates the tables when they are missing; idempotent, run under the setup lock.
  static let create = """
    CREATE TABLE IF NOT EXISTS tandem_meta (
      key text PRIMARY KEY,
      value bigint NOT NULL
    );
    CREATE TABLE IF NOT EXISTS tandem_deltas (
      sequence bigint PRIMARY KEY CHECK (sequence > 0),
      client text NOT NULL,
      number bigint NOT NULL,
      generation bigint NOT NULL,
      key text NOT NULL,
      tag text NOT NULL,
      patch bytea NOT NULL,
      chain bigint NOT NULL
    );
    CREATE TABLE IF NOT EXISTS tandem_ledger (
      client text PRIMARY KEY,
      last_number bigint NOT NULL,
      last_sequence bigint NOT NULL,
      last_active bigint NOT NULL,
      rejections bytea NOT NULL,
      generation bigint NOT NULL,
      key text NOT NULL
    );
    CREATE TABLE IF NOT EXISTS tandem_snapshots (
      sequence bigint PRIMARY KEY CHECK (sequence >= 0),
      hash bigint NOT NULL,
      document bytea NOT NULL,
      schema bytea NOT NULL
    );
    CREATE TABLE IF NOT EXISTS tandem_snapshot_ledger (
      snapshot bigint NOT NULL REFERENCES tandem_snapshots ON DELETE CASCADE,
      client text NOT NULL,
      last_number bigint NOT NULL,
      last_sequence bigint NOT NULL,
      last_active bigint NOT NULL,
      rejections bytea NOT NULL,
      generation bigint NOT NULL,
      key text NOT NULL,
      PRIMARY KEY (snapshot, client)
    );
    """

  /// The `tandem_meta` keys: the epoch, the format version, the last sequence stored and its
  /// chain value, the chain's base (the value before the oldest row kept) and the ledger's
  /// forgotten-through sequence.
  static let epochKey = "epoch"
  static let versionKey = "version"
  static let lastSequenceKey = "last_sequence"
  static let lastChainKey = "last_chain"
  static let chainBaseKey = "chain_base"
  static let forgottenThroughKey = "forgotten_through"
  static let deltasSinceSnapshotKey = "deltas_since_snapshot"
  static let bytesSinceSnapshotKey = "bytes_since_snapshot"

  /// Inserts the meta records of a new history of epoch $1, unless there are some.
  static let seed = """
    INSERT INTO tandem_meta (key, value) VALUES
      ('epoch', $1), ('version', \(version)), ('last_sequence', 0), ('last_chain', 0),
      ('chain_base', 0), ('forgotten_through', 0), ('deltas_since_snapshot', 0),
      ('bytes_since_snapshot', 0)
    ON CONFLICT (key) DO NOTHING
    """

  /// The meta records, locked for the writing transaction (appenders serialize on them).
  static let metaForUpdate = "SELECT key, value FROM tandem_meta FOR UPDATE"
  /// The meta records, for a reader.
  static let meta = "SELECT key, value FROM tandem_meta"
  /// Sets the meta record $1 to $2.
  static let setMeta = "UPDATE tandem_meta SET value = $2 WHERE key = $1"
  /// Sets the meta record $1 to $2, inserting it when it is missing (a restore into tables it
  /// has just created).
  static let upsertMeta = """
    INSERT INTO tandem_meta (key, value) VALUES ($1, $2)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
    """

  /// The columns of a ledger row, in ``LedgerRejections`` order.
  static let ledgerColumns =
    "client, last_number, last_sequence, last_active, rejections, generation, key"

  /// The columns of a `tandem_deltas` row, as ``PostgresJournal/deltaRow(_:_:)`` reads them.
  static let deltaColumns = "sequence, client, number, generation, key, tag, patch, chain"

  /// Inserts a batch of `tandem_deltas` rows, sent as arrays (``PostgresDeltaRows``): one round
  /// trip whatever the batch's size.
  static let insertDeltas = """
    INSERT INTO tandem_deltas
      (sequence, client, number, generation, key, tag, patch, chain)
    SELECT * FROM unnest($1::int8[], $2::text[], $3::int8[], $4::int8[], $5::text[],
      $6::text[], $7::bytea[], $8::int8[])
    """

  /// Inserts a row of the current ledger ($1...$7, ``PostgresJournal/ledgerParameters(_:_:)``).
  static let insertLedger = """
    INSERT INTO tandem_ledger (\(ledgerColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
    """

  /// Inserts a row of the ledger of the snapshot $8 ($1...$7 as for ``insertLedger``).
  static let insertSnapshotLedger = """
    INSERT INTO tandem_snapshot_ledger (snapshot, \(ledgerColumns))
    VALUES ($8, $1, $2, $3, $4, $5, $6, $7)
    """
}
