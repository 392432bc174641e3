import TandemProtocol

/// The arbiter of a shared journal's leadership lease: the database that also holds the
/// journal, so that holding the lease and appending are checked in one transaction.
///
/// Every call is one short transaction on the arbiter; times are the arbiter's. A leader
/// renews well before its lease runs out (every third of its length, say) and stops
/// acknowledging as soon as it cannot be sure it still holds it.
public protocol LeaseStore: Sendable {
  /// The lease as it stands, or nil when no leader ever took it.
  func current() throws(JournalError) -> LeaseRecord?

  /// Takes the lease for `holder` when nobody holds it or it has expired, with a fencing epoch
  /// one above the last; returns the new record, or nil when another holder's lease is still
  /// running. (A holder whose own lease still runs gets nil too: it renews instead.)
  func acquire(
    holder: String, control: String, updates: String, length: Duration
  )
    throws(JournalError) -> LeaseRecord?

  /// Extends `holder`'s lease to `length` from now (the arbiter's now), provided its fencing
  /// epoch is still the current one and it has not expired; returns the new record, or nil
  /// when the lease was lost (expired, or taken by another).
  func renew(
    holder: String, fencingEpoch: UInt64, length: Duration
  )
    throws(JournalError) -> LeaseRecord?

  /// Gives the lease up at once (for a clean hand-over), if `holder` still holds it with
  /// `fencingEpoch`; a standby waiting in ``waitForChange(timeout:)`` wakes.
  func release(holder: String, fencingEpoch: UInt64) throws(JournalError)

  /// Waits until the lease changes (taken, renewed, released) or `timeout` passes, whichever
  /// comes first. Waking early without a change is allowed; callers read ``current()`` again.
  func waitForChange(timeout: Duration) throws(JournalError)

  /// Records that the leader process `id`, advertising `control` and `updates`, is alive now
  /// (the arbiter's now) in `role`, replacing what it recorded before, so that the other
  /// leaders sharing the journal list it (``leaders(except:seenWithin:)``); deletes the
  /// records of other leaders not recorded for `forgettingAfter`. It is no change of the
  /// lease: it does not wake those waiting in ``waitForChange(timeout:)`` (each leader
  /// announces itself whenever it reads the lease, so a wake-up would wake them all in turn).
  func announce(
    id: String, control: String, updates: String, role: String, forgettingAfter: Duration
  ) throws(JournalError)

  /// The leaders other than `id` recorded (``announce(id:control:updates:role:forgettingAfter:)``)
  /// within the last `seenWithin`, by the arbiter's clock, in the order of their ids.
  func leaders(except id: String, seenWithin: Duration) throws(JournalError) -> [LeaderPresence]
}
