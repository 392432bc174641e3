/// The columns of a batch of `tandem_deltas` rows, sent as arrays
/// (``PostgresJournalSchema/insertDeltas``), so that a batch is one statement.
struct PostgresDeltaRows {
  private var sequences: [Int64] = []
  private var clients: [String] = []
  private var numbers: [Int64] = []
  private var generations: [Int64] = []
  private var keys: [String] = []
  private var tags: [String] = []
  private var patches: [[UInt8]] = []
  private var chains: [Int64] = []

  /// Adds `row` to the batch.
  mutating func add(_ row: DeltaRow) {
    sequences.append(Int64(row.sequence))
    clients.append(row.action.origin.client)
    numbers.append(Int64(bitPattern: row.action.origin.number))
    generations.append(Int64(bitPattern: row.action.origin.generation))
    keys.append(row.action.origin.key)
    tags.append(row.action.tag)
    patches.append(row.patch)
    chains.append(Int64(bitPattern: row.chain))
  }

  /// Inserts the batch's rows, if there are any, in the caller's transaction.
  func insert(on connection: PostgresConnection) throws(PostgresError) {
    guard !sequences.isEmpty else { return }
    try connection.exec(
      PostgresJournalSchema.insertDeltas,
      [
        .int8Array(sequences), .textArray(clients), .int8Array(numbers),
        .int8Array(generations), .textArray(keys), .textArray(tags), .byteaArray(patches),
        .int8Array(chains),
      ])
  }
}
