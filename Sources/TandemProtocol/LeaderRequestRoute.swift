/// Where a one-shot request (an operator's tool: `SNAPSHOT`, `STATS`, `DISPATCH`...) goes
/// among several leader endpoints, after each outcome.
///
/// The request goes to the first endpoint given. A standby answers it with `REDIRECT` and
/// handles nothing of it, so the request goes again to the holder the standby names (even one
/// not given), or, when it names none (or its own endpoint: a former process at its address,
/// gone), to the next endpoint given. A silent endpoint moves the
/// request to the next one given only when ``resendsAfterSilence`` (a request with no effect;
/// an action sent there may have been applied, and is not sent elsewhere; a `STEP-DOWN` may
/// have begun a hand-over there, and sent on it could reach the new holder and hand the lease
/// over a second time). Every endpoint given
/// is tried at most once, and at most ``LeaderEndpoints/maximumRedirects`` redirects are
/// followed, so that two standbys naming each other end the request.
package struct LeaderRequestRoute: Sendable, Equatable {
  /// What happened to the request sent to ``current``.
  package enum Outcome: Sendable, Equatable {
    /// A reply other than `REDIRECT`: the request is done.
    case answered
    /// `REDIRECT` to `control` (empty: the standby knows no holder).
    case redirected(control: String)
    /// No reply in time.
    case silent
  }

  /// What the tool does next.
  package enum Step: Sendable, Equatable {
    /// Send the request (again) to this endpoint.
    case send(to: String)
    /// The reply stands.
    case done
    /// Give up: no endpoint answered; `reason` says what happened, for the tool's message.
    case giveUp(reason: String)
  }

  /// The endpoints given, in order; never empty.
  package let configured: [String]
  /// Whether a silent endpoint sends the request on to the next one.
  package let resendsAfterSilence: Bool
  /// The endpoint the request was sent to last.
  package private(set) var current: String
  /// The endpoints given that were tried.
  private var tried = 1
  /// Redirects followed.
  private var redirects = 0
  /// What each endpoint did, for the message when the request gives up.
  private var history: [String] = []

  /// A route over `configured` (at least one endpoint).
  package init(_ configured: [String], resendsAfterSilence: Bool) {
    precondition(!configured.isEmpty, "a request needs at least one leader endpoint")
    self.configured = configured
    self.resendsAfterSilence = resendsAfterSilence
    current = configured[0]
  }

  /// A route over `configured` for `request`: silence sends it on unless it forwards an
  /// action or asks for a hand-over.
  package init(_ configured: [String], for request: ControlRequest) {
    let resends =
      switch request {
      case .dispatch, .dispatchQuietly, .stepDown: false
      default: true
      }
    self.init(configured, resendsAfterSilence: resends)
  }

  /// The first step: send to the first endpoint given.
  package var first: Step { .send(to: configured[0]) }

  /// The next step after `outcome` at ``current``.
  package mutating func next(after outcome: Outcome) -> Step {
    switch outcome {
    case .answered:
      return .done
    case .redirected(let control) where !control.isEmpty && control != current:
      history.append("\(current) is a standby naming \(control)")
      guard redirects < LeaderEndpoints.maximumRedirects else {
        return .giveUp(reason: summary + "; too many redirects in a row")
      }
      redirects += 1
      current = control
      return .send(to: control)
    case .redirected:
      history.append("\(current) is a standby that knows no active leader")
      return nextGiven()
    case .silent:
      history.append("\(current) did not answer")
      guard resendsAfterSilence else { return .giveUp(reason: summary) }
      return nextGiven()
    }
  }

  /// The next endpoint given not tried yet, or giving up when all were.
  private mutating func nextGiven() -> Step {
    guard tried < configured.count else { return .giveUp(reason: summary) }
    current = configured[tried]
    tried += 1
    return .send(to: current)
  }

  private var summary: String { history.joined(separator: "; ") }
}
