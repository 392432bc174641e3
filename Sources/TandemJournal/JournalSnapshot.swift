import TandemProtocol

/// A stored snapshot: the canonical state document at a sequence, its hash and the whole
/// client ledger at that point.
public struct JournalSnapshot: Sendable, Equatable {
  /// The sequence of the state the document holds.
  public var sequence: UInt64
  /// The state hash of the document (the protocol's FNV-1a of the canonical bytes).
  public var hash: UInt64
  /// The state as canonical JSON bytes.
  public var document: [UInt8]
  /// The client ledger at ``sequence`` (with the default limits: set the leader's own).
  public var ledger: ClientLedger
  /// The canonical JSON of the `SchemaDescription` of the state type that wrote ``document``;
  /// empty when it was not recorded (a snapshot stored before format version 6).
  public var schema: [UInt8]

  /// A snapshot with the given parts.
  public init(
    sequence: UInt64, hash: UInt64, document: [UInt8], ledger: ClientLedger,
    schema: [UInt8] = []
  ) {
    self.sequence = sequence
    self.hash = hash
    self.document = document
    self.ledger = ledger
    self.schema = schema
  }
}
