/// A leader process sharing a journal, as it last announced itself to the arbiter
/// (``LeaseStore/announce(id:control:updates:role:forgettingAfter:)``): how the active leader
/// knows its standbys.
public struct LeaderPresence: Sendable, Hashable, CustomStringConvertible {
  /// Its leader id (unique per leader process, e.g. `host:pid:random`).
  public var id: String
  /// The control endpoint it advertises to followers.
  public var control: String
  /// The updates endpoint it advertises to followers.
  public var updates: String
  /// What it said it was doing when it last announced itself: `standby`, `acquiring`,
  /// `recovering`, `active`, `steppingDown` or `demoting`.
  public var role: String
  /// How long ago it last announced itself when the list was read, by the arbiter's clock.
  public var sinceSeen: Duration

  public init(id: String, control: String, updates: String, role: String, sinceSeen: Duration) {
    self.id = id
    self.control = control
    self.updates = updates
    self.role = role
    self.sinceSeen = sinceSeen
  }

  public var description: String {
    "\(id) (\(role), control \(control), updates \(updates), seen \(sinceSeen) ago)"
  }
}
