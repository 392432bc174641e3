import TandemProtocol

/// The simulation's model of the database that arbitrates standby leaders: one lease row (the
/// holder, its endpoints, a fencing epoch, an expiry by the database's clock, which is the
/// simulation's) and the shared journal, whose appends check the fencing epoch in the same
/// transaction, as the PostgreSQL journal does.
struct SimulatedArbiter {
  /// One action the journal holds.
  struct Entry: Equatable {
    var client: String
    var number: UInt64
    var fencingEpoch: UInt64
  }

  var holder: String?
  var control = ""
  var fencingEpoch: UInt64 = 0
  var expiresAt: Int64 = 0
  /// Whether appends check the fencing epoch (a mutation turns it off).
  var fences = true
  private(set) var journal: [Entry] = []

  func record(now: Int64) -> LeaseRecord? {
    guard let holder else { return nil }
    return LeaseRecord(
      holder: holder, control: control, updates: control + "/updates",
      fencingEpoch: fencingEpoch, remaining: .milliseconds(expiresAt - now))
  }

  /// Whether `holder` holds a lease that has not run out at `now`.
  func holds(_ holder: String, now: Int64) -> Bool {
    self.holder == holder && expiresAt > now
  }

  mutating func acquire(
    holder: String, control: String, length: Int64, now: Int64
  )
    -> LeaseRecord?
  {
    guard self.holder == nil || expiresAt <= now else { return nil }
    self.holder = holder
    self.control = control
    fencingEpoch += 1
    expiresAt = now + length
    return record(now: now)
  }

  mutating func renew(
    holder: String, fencingEpoch: UInt64, length: Int64, now: Int64
  )
    -> LeaseRecord?
  {
    guard self.holder == holder, self.fencingEpoch == fencingEpoch, expiresAt > now else {
      return nil
    }
    expiresAt = now + length
    return record(now: now)
  }

  mutating func release(holder: String, fencingEpoch: UInt64, now: Int64) {
    guard self.holder == holder, self.fencingEpoch == fencingEpoch else { return }
    expiresAt = now
  }

  /// Appends a batch in one transaction if `fencingEpoch` is the current one; false when
  /// fenced off.
  mutating func append(_ batch: [Entry], fencingEpoch: UInt64) -> Bool {
    guard !fences || fencingEpoch == self.fencingEpoch else { return false }
    journal += batch
    return true
  }

  /// The last number of each client in the journal: what a leader recovers its ledger from.
  func lastNumbers() -> [String: UInt64] {
    var last: [String: UInt64] = [:]
    for entry in journal { last[entry.client] = max(last[entry.client] ?? 0, entry.number) }
    return last
  }
}
