/// The leader endpoints a follower may join, and which one it joins next.
///
/// A follower of standby leaders is given all their control endpoints. It joins the first; a
/// standby answers its `HELLO` with `REDIRECT` to the lease holder, which the follower joins
/// next (even one it was not given), or, when the standby names none, tries again; a leader that
/// goes silent, or a join that stalls, moves it to the next endpoint given, round the list. Redirects in a row without a join are bounded
/// (two standbys that each name the other, from stale reads, would bounce a follower for ever):
/// past ``maximumRedirects`` the follower goes round the list instead until it joins.
package struct LeaderEndpoints: Sendable, Equatable {
  /// The endpoints given, in order; never empty.
  package let configured: [String]
  /// The endpoint to join next.
  package private(set) var current: String
  /// The position in ``configured`` of the last endpoint taken from it.
  private var index = 0
  /// Redirects followed since the last join.
  package private(set) var redirects = 0
  /// The most redirects followed in a row before a join.
  package static let maximumRedirects = 3

  /// Endpoints `configured` (at least one).
  package init(_ configured: [String]) {
    precondition(!configured.isEmpty, "a follower needs at least one leader endpoint")
    self.configured = configured
    current = configured[0]
  }

  /// A standby redirected the follower to `control`: whether the follower follows it (else it
  /// stays, or moves on). A standby that names no leader (`control` empty) saw the lease free
  /// or run out, and may be about to take it: the follower tries it again (after its back-off).
  /// A standby that names its own endpoint names none either: the holder it read is a former
  /// process at its address, which is gone since the standby holds the address now.
  /// Past ``maximumRedirects`` in a row without a join, it moves to the next endpoint given.
  package mutating func redirected(to control: String) -> Bool {
    guard redirects < Self.maximumRedirects else {
      advance()
      return false
    }
    redirects += 1
    guard !control.isEmpty, control != current else { return false }
    current = control
    return true
  }

  /// The current leader went silent or did not answer the join: move to the next endpoint
  /// given (round the list).
  package mutating func advance() {
    index = (index + 1) % configured.count
    current = configured[index]
  }

  /// The follower joined ``current``: redirects count from zero again.
  package mutating func joined() {
    redirects = 0
  }
}
