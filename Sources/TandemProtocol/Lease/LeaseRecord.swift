/// Who holds the leadership lease of a shared journal, as the arbiter (the database) saw it
/// when it was read.
///
/// Leaders sharing one journal take turns through one lease. The holder may append to the
/// journal only while its ``fencingEpoch`` is the current one, which the arbiter checks in the
/// same transaction as every append; every acquisition increases the fencing epoch, so a deposed
/// leader's late commit is refused even when its clock or its network lies. ``remaining`` is
/// computed from the arbiter's clock, never a leader's.
public struct LeaseRecord: Sendable, Hashable, CustomStringConvertible {
  /// The holder's leader id (unique per leader process, e.g. `host:pid:random`).
  public var holder: String
  /// The control endpoint the holder advertises to followers.
  public var control: String
  /// The updates endpoint the holder advertises to followers.
  public var updates: String
  /// Increases by one each time the lease changes hands (or is taken again after expiry).
  public var fencingEpoch: UInt64
  /// Time left when the record was read, by the arbiter's clock; zero or less means expired.
  public var remaining: Duration

  public init(
    holder: String, control: String, updates: String, fencingEpoch: UInt64, remaining: Duration
  ) {
    self.holder = holder
    self.control = control
    self.updates = updates
    self.fencingEpoch = fencingEpoch
    self.remaining = remaining
  }

  /// Whether the lease had run out when it was read.
  public var isExpired: Bool { remaining <= .zero }

  public var description: String {
    "\(holder) (fencing epoch \(fencingEpoch), control \(control), updates \(updates), "
      + "\(isExpired ? "expired" : "\(remaining) left"))"
  }
}
