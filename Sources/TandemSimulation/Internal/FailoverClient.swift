import TandemProtocol

/// A follower process of a standby run, reduced to what failover tests: it numbers its actions,
/// forwards them to the leader it follows (``LeaderEndpoints``), sends again what goes
/// unanswered, follows `REDIRECT`s, and moves on to the next leader when one stays silent.
final class FailoverClient {
  unowned let world: FailoverSimulation
  let id: Int
  var leaders: LeaderEndpoints
  private(set) var lastNumber: UInt64 = 0
  /// The actions not yet acknowledged, by number, with when each was last sent.
  private(set) var unanswered: [UInt64: Int64] = [:]
  /// Every number acknowledged, and by which leader first.
  private(set) var acknowledged: [UInt64: String] = [:]
  /// When something last came back from a leader.
  private var lastHeard: Int64 = 0
  private var silentRounds = 0

  var name: String { "c\(id)" }

  init(world: FailoverSimulation, id: Int, leaders: [String]) {
    self.world = world
    self.id = id
    self.leaders = LeaderEndpoints(leaders)
  }

  /// The application sends one more action.
  func send() {
    lastNumber += 1
    unanswered[lastNumber] = world.now
    world.forward(number: lastNumber, from: self, to: leaders.current)
  }

  /// The timer: send again what went unanswered for the resend time, in order; after two
  /// such rounds without a word from the leader, try the next one.
  func tick() {
    let resend = world.configuration.resendMilliseconds
    guard let oldest = unanswered.values.min(), world.now - oldest >= resend else { return }
    if world.now - lastHeard >= resend {
      silentRounds += 1
      if silentRounds >= 2 {
        silentRounds = 0
        leaders.advance()
        world.trace("\(name) hears nothing; tries \(leaders.current)")
      }
    }
    sendUnanswered()
  }

  func received(_ reply: FailoverSimulation.Reply) {
    lastHeard = world.now
    silentRounds = 0
    switch reply {
    case .ack(let number, let leader):
      guard unanswered.removeValue(forKey: number) != nil else { return }
      acknowledged[number] = leader
      leaders.joined()
    case .redirect(let control, let from):
      // One answer per action sent comes back: only the first from the leader followed counts.
      let previous = leaders.current
      guard from == previous else { return }
      let followed = leaders.redirected(to: control)
      // Named none: the resend timer tries the same standby again.
      guard leaders.current != previous else { return }
      world.trace("\(name) is redirected from \(previous) to \(leaders.current)")
      // Named a holder: send there now; named none: wait for the resend timer.
      if followed { sendUnanswered() }
    }
  }

  private func sendUnanswered() {
    for number in unanswered.keys.sorted() {
      unanswered[number] = world.now
      world.forward(number: number, from: self, to: leaders.current)
    }
  }
}
