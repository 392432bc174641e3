import Testing

@testable import TandemProtocol

/// ``LeaderRequestRoute``: where a one-shot request goes among several leader endpoints after
/// each outcome (a reply, a `REDIRECT`, silence). Inputs and the steps they return.
@Suite("Leader request route")
struct LeaderRequestRouteTests {
  typealias Outcome = LeaderRequestRoute.Outcome
  typealias Step = LeaderRequestRoute.Step

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var configured: [String]
    var resends = true
    var outcomes: [Outcome]
    /// The step after each outcome (`giveUp` compared by case only).
    var steps: [Step]
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(name: "an answer is final", configured: ["a", "b"], outcomes: [.answered], steps: [.done]),
    Row(
      name: "a redirect is followed, even off the list", configured: ["a", "b"],
      outcomes: [.redirected(control: "z"), .answered], steps: [.send(to: "z"), .done]),
    Row(
      name: "a standby naming nobody sends the request to the next endpoint",
      configured: ["a", "b"], outcomes: [.redirected(control: ""), .answered],
      steps: [.send(to: "b"), .done]),
    Row(
      name: "a standby naming its own endpoint names nobody (a former process there, gone)",
      configured: ["a", "b"], outcomes: [.redirected(control: "a"), .answered],
      steps: [.send(to: "b"), .done]),
    Row(
      name: "silence moves a request without effect on", configured: ["a", "b", "c"],
      outcomes: [.silent, .silent, .answered], steps: [.send(to: "b"), .send(to: "c"), .done]),
    Row(
      name: "silence ends an action's route (it may have been applied)", configured: ["a", "b"],
      resends: false, outcomes: [.silent], steps: [.giveUp(reason: "")]),
    Row(
      name: "an action still follows a redirect (a standby applies nothing)",
      configured: ["a", "b"], resends: false,
      outcomes: [.redirected(control: "b"), .answered], steps: [.send(to: "b"), .done]),
    Row(
      name: "every endpoint silent gives up", configured: ["a", "b"],
      outcomes: [.silent, .silent], steps: [.send(to: "b"), .giveUp(reason: "")]),
    Row(
      name: "standbys naming each other end after the redirect bound", configured: ["a"],
      outcomes: [
        .redirected(control: "b"), .redirected(control: "a"), .redirected(control: "b"),
        .redirected(control: "a"),
      ],
      steps: [.send(to: "b"), .send(to: "a"), .send(to: "b"), .giveUp(reason: "")]),
  ]

  @Test(arguments: rows)
  func route(_ row: Row) {
    var route = LeaderRequestRoute(row.configured, resendsAfterSilence: row.resends)
    #expect(route.first == .send(to: row.configured[0]))
    var steps: [Step] = []
    for outcome in row.outcomes {
      let step = route.next(after: outcome)
      if case .giveUp = step { steps.append(.giveUp(reason: "")) } else { steps.append(step) }
    }
    #expect(steps == row.steps)
  }

  /// Only requests that change nothing go on after silence: an action may have been applied,
  /// and a `STEP-DOWN` may have begun a hand-over, whose next holder must not get it too.
  @Test func silenceSendsOnOnlyTheRequestsWithoutEffect() {
    let action = ForwardedAction(client: "c", number: 1, tag: "t", payload: Frame(utf8: "{}"))
    let rows: [(ControlRequest, Bool)] = [
      (.snapshot, true), (.stats, true), (.ping(client: "c", sequence: 0), true),
      (.dispatch(action), false), (.dispatchQuietly(action), false), (.stepDown, false),
    ]
    for (request, resends) in rows {
      #expect(
        LeaderRequestRoute(["a", "b"], for: request).resendsAfterSilence == resends,
        "\(request.command)")
    }
  }

  @Test func theReasonSaysWhatEachEndpointDid() {
    var route = LeaderRequestRoute(["a", "b"], resendsAfterSilence: true)
    _ = route.next(after: .redirected(control: ""))
    let step = route.next(after: .silent)
    #expect(
      step == .giveUp(reason: "a is a standby that knows no active leader; b did not answer"))
  }
}
