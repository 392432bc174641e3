import Foundation

@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync

/// Runs `body` with the path of a fresh temporary directory, removed afterwards whatever
/// happens.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("tandem-journal-tests-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

/// A small delta from `client` (its action `number`, by default the sequence).
func journalDelta(
  _ sequence: UInt64, client: String = "c1", number: UInt64? = nil, patch: String? = nil
) -> Delta {
  Delta(
    sequence: sequence, origin: Origin(client: client, number: number ?? sequence), tag: "tick",
    patch: Array((patch ?? #"[{"op":"replace","path":"/n","value":\#(sequence)}]"#).utf8))
}

/// The deltas `range`, all from `client`.
func journalDeltas(_ range: ClosedRange<UInt64>, client: String = "c1") -> [Delta] {
  range.map { journalDelta($0, client: client) }
}

/// A journal at `directory/leader.journal` with its base snapshot (sequence 0) stored.
func makeJournal(
  in directory: String, _ configuration: Journal.Configuration = .init(durability: .normal)
) throws -> Journal {
  let journal = try Journal(path: directory + "/leader.journal", configuration: configuration)
  if try journal.latestSnapshot() == nil {
    try journal.writeSnapshot(
      sequence: 0, document: Array("{}".utf8), ledger: ClientLedger())
  }
  return journal
}

/// Runs `sql` on the journal file at `path` through a connection of its own (the journal must
/// be closed), to damage or alter it the way a test needs.
func alterJournal(_ path: String, _ sql: String) throws {
  let connection = try SQLiteConnection(path: path, access: .readWrite)
  try connection.execute(sql)
}

/// Turns the closed journal at `path` into the version 6 format: the same tables, without the
/// key columns (the key that sent each action, the key each client id is bound to).
func downgradeToVersion6(_ path: String) throws {
  try alterJournal(
    path,
    """
    ALTER TABLE deltas DROP COLUMN key;
    ALTER TABLE ledger DROP COLUMN key;
    ALTER TABLE snapshot_ledger DROP COLUMN key;
    PRAGMA user_version = 6;
    UPDATE meta SET value = 6 WHERE key = 'version';
    """)
}

/// Turns the closed journal at `path` into the version 5 format: the version 6 one, without
/// the snapshots' schemas.
func downgradeToVersion5(_ path: String) throws {
  try downgradeToVersion6(path)
  try alterJournal(
    path,
    """
    ALTER TABLE snapshots DROP COLUMN schema;
    PRAGMA user_version = 5;
    UPDATE meta SET value = 5 WHERE key = 'version';
    """)
}

/// Turns the closed journal at `path` into the version 4 format: the version 5 one, without
/// the deltas' hash chain.
func downgradeToVersion4(_ path: String) throws {
  try downgradeToVersion5(path)
  try alterJournal(
    path,
    """
    ALTER TABLE deltas DROP COLUMN chain;
    DELETE FROM meta WHERE key = 'chain_base';
    PRAGMA user_version = 4;
    UPDATE meta SET value = 4 WHERE key = 'version';
    """)
}

/// Turns the closed journal at `path` into the version 3 format: the version 4 one, without
/// the ledgers' generations.
func downgradeToVersion3(_ path: String) throws {
  try downgradeToVersion4(path)
  try alterJournal(
    path,
    """
    ALTER TABLE deltas DROP COLUMN generation;
    ALTER TABLE ledger DROP COLUMN generation;
    ALTER TABLE snapshot_ledger DROP COLUMN generation;
    PRAGMA user_version = 3;
    UPDATE meta SET value = 3 WHERE key = 'version';
    """)
}

/// Turns the closed journal at `path` into the version 2 format: the version 3 one, without
/// the ledger's forgotten-through record.
func downgradeToVersion2(_ path: String) throws {
  try downgradeToVersion3(path)
  try alterJournal(
    path,
    """
    DELETE FROM meta WHERE key = 'ledger_forgotten_through';
    PRAGMA user_version = 2;
    UPDATE meta SET value = 2 WHERE key = 'version';
    """)
}

/// Turns the closed journal at `path` into the version 1 format: the version 2 one, without the
/// ledgers' rejections.
func downgradeToVersion1(_ path: String) throws {
  try downgradeToVersion2(path)
  try alterJournal(
    path,
    """
    ALTER TABLE ledger DROP COLUMN rejections;
    ALTER TABLE snapshot_ledger DROP COLUMN rejections;
    PRAGMA user_version = 1;
    UPDATE meta SET value = 1 WHERE key = 'version';
    """)
}

/// The ledger entries `ledger` changed for `client`, as a batch passes them to `append`.
func ledgerChange(_ ledger: ClientLedger, _ clients: String...) -> [String: ClientLedger.Entry] {
  var changes: [String: ClientLedger.Entry] = [:]
  for client in clients { changes[client] = ledger.entries[client] }
  return changes
}
