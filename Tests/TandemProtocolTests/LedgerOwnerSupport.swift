@testable import TandemProtocol

extension ClientLedger {
  /// Makes a process handed `generation` the owner of `client`, as if it had said `HELLO` to
  /// this ledger and been handed it.
  mutating func own(_ client: String, generation: UInt64, now: UInt64) {
    var entries = self.entries
    var entry = entries[client] ?? Entry(lastNumber: 0, lastSequence: 0, lastActive: now)
    entry.generation = generation
    entries[client] = entry
    self = ClientLedger(
      idleLimit: idleLimit, maximumClients: maximumClients, restoring: entries,
      forgottenThrough: forgottenThrough)
  }
}
