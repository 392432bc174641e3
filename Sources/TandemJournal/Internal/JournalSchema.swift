import TandemProtocol

/// The journal's file format: SQL, identifiers and version.
///
/// Version 7 (see the Journal article in the DocC catalog for the meaning of every column):
/// `meta` (key/value: epoch, format, session markers, the ledger's forgotten-through sequence),
/// `deltas` (one row per sequence, i.e.
/// per action; a delta of several actions takes a row each, all but its last with an empty
/// patch, and each row its link in the hash chain, ``DeltaChain``),
/// `ledger` (the client ledger as of the last commit), `snapshots` and `snapshot_ledger`
/// (the state document, the schema of the state type that wrote it, and the whole ledger at a
/// sequence). Version 6 lacked the `key` columns (the name of the CURVE key that sent each
/// action, and the key each client id is bound to, ``addKeyColumns``), version 5 also the
/// snapshots' `schema` column (``addSchemaColumn``), version 4 also the deltas'
/// `chain` column and the chain's base record, version 3 also the ledgers'
/// `generation` column, version 2 also the forgotten-through record, and version 1 also the
/// ledgers' `rejections` column; a leader opening such a journal adds them
/// (``addRejectionColumns``, ``addGenerationColumns``, ``addKeyColumns``, ``addChainColumn``,
/// ``upgradeToCurrent``).
package enum JournalSchema {
  /// The format version this build reads and writes (`PRAGMA user_version`).
  package static let version: Int64 = 7
  /// `PRAGMA application_id`: "TNDM" in ASCII, marking the file as a Tandem journal.
  package static let applicationID: Int64 = 0x544E_444D
  /// The first 16 bytes of every SQLite 3 database file.
  package static let sqliteHeader: [UInt8] = Array("SQLite format 3\0".utf8)
  /// The tables a journal must have.
  package static let tables = ["meta", "deltas", "ledger", "snapshots", "snapshot_ledger"]

  /// Run on an empty database before ``create(epoch:)``, outside a transaction: free pages can be
  /// returned to the file system later (`PRAGMA incremental_vacuum`).
  package static let prepareEmpty = "PRAGMA auto_vacuum = INCREMENTAL"

  /// The statements that create a journal of `epoch` in an empty database, in one transaction:
  /// the tables with the format, version and epoch records, so that a file is either a
  /// complete new journal or no journal at all.
  package static func create(epoch: Epoch) -> String {
    """
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = \(version);
    CREATE TABLE meta (
      key TEXT PRIMARY KEY NOT NULL,
      value ANY
    ) STRICT, WITHOUT ROWID;
    INSERT INTO meta (key, value) VALUES
      ('format', '\(formatValue)'), ('version', \(version)),
      ('epoch', \(Int64(bitPattern: epoch.rawValue))), ('\(forgottenThroughKey)', 0),
      ('\(chainBaseKey)', 0);
    CREATE TABLE deltas (
      sequence INTEGER PRIMARY KEY NOT NULL,
      client TEXT NOT NULL,
      number INTEGER NOT NULL,
      tag TEXT NOT NULL,
      patch BLOB NOT NULL,
      generation INTEGER NOT NULL DEFAULT 0,
      chain INTEGER NOT NULL DEFAULT 0,
      key TEXT NOT NULL DEFAULT ''
    ) STRICT;
    CREATE TABLE ledger (
      client TEXT PRIMARY KEY NOT NULL,
      last_number INTEGER NOT NULL,
      last_sequence INTEGER NOT NULL,
      last_active INTEGER NOT NULL,
      rejections BLOB NOT NULL,
      generation INTEGER NOT NULL DEFAULT 0,
      key TEXT NOT NULL DEFAULT ''
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE snapshots (
      sequence INTEGER PRIMARY KEY NOT NULL,
      hash INTEGER NOT NULL,
      document BLOB NOT NULL,
      schema BLOB NOT NULL DEFAULT x''
    ) STRICT;
    CREATE TABLE snapshot_ledger (
      snapshot INTEGER NOT NULL,
      client TEXT NOT NULL,
      last_number INTEGER NOT NULL,
      last_sequence INTEGER NOT NULL,
      last_active INTEGER NOT NULL,
      rejections BLOB NOT NULL,
      generation INTEGER NOT NULL DEFAULT 0,
      key TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (snapshot, client)
    ) STRICT, WITHOUT ROWID;
    """
  }

  // MARK: Statements used on the hot paths (prepared once per connection, then reused)

  package static let insertDelta =
    """
    INSERT INTO deltas (sequence, client, number, tag, patch, generation, chain, key)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
    """
  package static let upsertLedger = """
    INSERT INTO ledger
    (client, last_number, last_sequence, last_active, rejections, generation, key)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
    ON CONFLICT (client) DO UPDATE
    SET last_number = ?2, last_sequence = ?3, last_active = ?4, rejections = ?5, generation = ?6,
    key = ?7
    """
  package static let copyLedgerToSnapshot = """
    INSERT INTO snapshot_ledger
    (snapshot, client, last_number, last_sequence, last_active, rejections, generation, key)
    SELECT ?1, client, last_number, last_sequence, last_active, rejections, generation, key
    FROM ledger
    """
  package static let deleteLedger = "DELETE FROM ledger WHERE client = ?1"
  package static let selectDeltasFrom =
    """
    SELECT sequence, client, number, tag, patch, generation, chain, key FROM deltas
    WHERE sequence >= ?1 ORDER BY sequence
    """
  package static let selectMeta = "SELECT value FROM meta WHERE key = ?1"
  package static let upsertMeta =
    "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2"
  /// Raises the forgotten-through record to ?1 (never lowers it).
  package static let raiseForgottenThrough = """
    INSERT INTO meta (key, value) VALUES ('\(forgottenThroughKey)', ?1)
    ON CONFLICT (key) DO UPDATE SET value = max(value, ?1)
    """
  package static let selectLedger =
    """
    SELECT client, last_number, last_sequence, last_active, rejections, generation, key
    FROM ledger ORDER BY client
    """
  package static let selectSnapshotLedger = """
    SELECT client, last_number, last_sequence, last_active, rejections, generation, key
    FROM snapshot_ledger WHERE snapshot = ?1 ORDER BY client
    """

  /// Turns a version 1 journal into a version 2 one (then ``upgradeToCurrent``): its ledgers
  /// keep no rejections.
  package static let addRejectionColumns = """
    ALTER TABLE ledger ADD COLUMN rejections BLOB NOT NULL DEFAULT x'5b5d';
    ALTER TABLE snapshot_ledger ADD COLUMN rejections BLOB NOT NULL DEFAULT x'5b5d';
    """

  /// Turns a version 3 (or older) journal into a version 4 one (then ``upgradeToCurrent``): no
  /// owner of a client id is known, so the next `HELLO` of each client takes its id over, and
  /// the deltas name no sender's generation.
  package static let addGenerationColumns = """
    ALTER TABLE deltas ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ledger ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE snapshot_ledger ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
    """

  /// Turns a version 6 (or older) journal into a version 7 one (then ``upgradeToCurrent``): no
  /// action's key and no client id's key are known, so each id is bound to the first key that
  /// uses it after the upgrade. Runs before ``addChainColumn``'s fill, which reads the column.
  package static let addKeyColumns = """
    ALTER TABLE deltas ADD COLUMN key TEXT NOT NULL DEFAULT '';
    ALTER TABLE ledger ADD COLUMN key TEXT NOT NULL DEFAULT '';
    ALTER TABLE snapshot_ledger ADD COLUMN key TEXT NOT NULL DEFAULT '';
    """

  /// Turns a version 4 (or older) journal into a version 5 one (then ``upgradeToCurrent``):
  /// the `chain` column, which the upgrade then fills (``JournalSession/fillChain()``), and the
  /// chain's base, 0: the chain vouches for the rows as they are at the upgrade.
  package static let addChainColumn = """
    ALTER TABLE deltas ADD COLUMN chain INTEGER NOT NULL DEFAULT 0;
    INSERT INTO meta (key, value) VALUES ('\(chainBaseKey)', 0) ON CONFLICT (key) DO NOTHING;
    """
  /// Turns a version 5 (or older) journal into a version 6 one (then ``upgradeToCurrent``):
  /// the snapshots' `schema` column, empty for the snapshots stored before, whose schema was
  /// not recorded.
  package static let addSchemaColumn = """
    ALTER TABLE snapshots ADD COLUMN schema BLOB NOT NULL DEFAULT x'';
    """
  /// Sets the `chain` of the row ?1 to ?2.
  package static let setChain = "UPDATE deltas SET chain = ?2 WHERE sequence = ?1"
  /// Sets the chain's base to the `chain` of the row ?1 (which a compaction is about to remove).
  package static let raiseChainBase = """
    INSERT INTO meta (key, value)
    VALUES ('\(chainBaseKey)', (SELECT chain FROM deltas WHERE sequence = ?1))
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
    """

  /// Turns a version 2 or 3 journal into this version (a version 3 one has its
  /// forgotten-through record already). Whether its leaders forgot clients, and how
  /// recently those were active, is not recorded, so the forgotten-through record starts at the
  /// last sequence it holds: a follower unknown to the leader treats every action it sent before
  /// as possibly applied (``ClientLedger/forgottenThrough``).
  package static let upgradeToCurrent = """
    INSERT INTO meta (key, value) VALUES ('\(forgottenThroughKey)', (
      SELECT coalesce(max(last), 0) FROM (
        SELECT max(sequence) AS last FROM deltas UNION ALL SELECT max(sequence) FROM snapshots)))
    ON CONFLICT (key) DO NOTHING;
    PRAGMA user_version = \(version);
    UPDATE meta SET value = \(version) WHERE key = 'version';
    """

  // MARK: Meta keys

  /// The history's epoch (an integer, by bit pattern).
  package static let epochKey = "epoch"
  /// The format version, as `PRAGMA user_version` also records it.
  package static let versionKey = "version"
  /// "tandem-journal": what wrote the file.
  package static let formatKey = "format"
  package static let formatValue = "tandem-journal"
  /// 1 while a leader has the journal open, 0 after it closed it cleanly.
  package static let sessionOpenKey = "session_open"
  /// The durability of the last leader session ("full" or "normal").
  package static let sessionDurabilityKey = "session_durability"
  /// The boot id of the machine during the last leader session.
  package static let sessionBootKey = "session_boot"
  /// The ledger's ``ClientLedger/forgottenThrough``: the latest sequence at which a client the
  /// ledger has forgotten was active (0 when it never forgot one).
  package static let forgottenThroughKey = "ledger_forgotten_through"
  /// The hash chain's value before the oldest `deltas` row kept (``DeltaChain``): 0 until a
  /// compaction removes rows, then the `chain` of the last row it removed.
  package static let chainBaseKey = "chain_base"
  /// The meta key set (to 1) once a leader session has kept the ``HighWaterMark`` beside the
  /// journal: without it, a missing mark is a journal written before marks, not a lost one.
  package static let keepsMarkKey = "keeps_high_water_mark"
}
