/// The exactly-once ledger as ``LeaderProtocol`` reads and changes it: where the ledger lives
/// is the shell's choice (the Swift leader shares it with the store's drainer under a lock, and
/// gives each operation one lock), the rules of each operation are ``ClientLedger``'s.
package protocol LeaderLedger {
  /// Answers a `HELLO` from a connection authenticated with `key` (empty without keys)
  /// (``ClientLedger/hello(client:generation:now:fresh:key:)``, with a random step drawn by the
  /// ledger's holder).
  mutating func hello(client: String, generation: UInt64, key: String) -> ClientLedger.Greeting
  /// The verdict for a forwarded action sent with `key`, or the owner's generation when another
  /// process took its client id over, or the owner's key when another key holds it
  /// (``ClientLedger/judge(_:now:key:)``).
  mutating func judge(_ forwarded: ForwardedAction, key: String) -> ClientLedger.Judgement
  /// The key `client` is bound to when it is another than `key` (``ClientLedger/owner(of:otherThan:)``).
  func owner(of client: String, otherThan key: String) -> String?
  /// Records that a follower's action was refused: its number is used up (and a client id
  /// bound to no key is bound to the origin's key).
  mutating func recordRejected(_ origin: Origin, _ rejection: Rejection)
  /// What `WELCOME` tells a client: its last number, and the ledger's forgotten-through.
  func welcomeFacts(of client: String) -> (lastNumber: UInt64, forgottenThrough: UInt64)
}

/// A ledger held alone, at a sequence: for the table tests and a simulator.
package struct StandaloneLedger: LeaderLedger, Sendable {
  package var ledger: ClientLedger
  /// The leader's sequence, the activity of entries the ledger creates.
  package var sequence: UInt64
  /// The random step of a new owner's generation (fixed here, so that tests can state it).
  package var fresh: UInt64

  package init(_ ledger: ClientLedger = ClientLedger(), sequence: UInt64 = 0, fresh: UInt64 = 5) {
    self.ledger = ledger
    self.sequence = sequence
    self.fresh = fresh
  }

  package mutating func hello(
    client: String, generation: UInt64, key: String
  ) -> ClientLedger.Greeting {
    ledger.hello(client: client, generation: generation, now: sequence, fresh: fresh, key: key)
  }

  package mutating func judge(_ forwarded: ForwardedAction, key: String) -> ClientLedger.Judgement {
    ledger.judge(forwarded, now: sequence, key: key)
  }

  package func owner(of client: String, otherThan key: String) -> String? {
    ledger.owner(of: client, otherThan: key)
  }

  package mutating func recordRejected(_ origin: Origin, _ rejection: Rejection) {
    ledger.recordRejected(
      client: origin.client, number: origin.number, now: sequence, rejection: rejection,
      key: origin.key)
  }

  package func welcomeFacts(of client: String) -> (lastNumber: UInt64, forgottenThrough: UInt64) {
    (ledger.lastNumber(of: client), ledger.forgottenThrough)
  }
}
