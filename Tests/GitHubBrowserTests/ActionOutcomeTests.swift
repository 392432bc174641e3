import Testing

@testable import GitHubBrowser
@testable import TandemSync

@Suite("The web front end waits for an action's outcome", .timeLimit(.minutes(2)))
struct ActionOutcomeTests {
  @Test func aWaitThatTimesOutLeavesNoTaskWaitingForTheReceipt() async throws {
    weak var released: Receipt?
    do {
      // A receipt that never settles (the leader never answers).
      let receipt = Receipt()
      released = receipt
      let outcome = await WebRoutes.outcome(of: receipt, within: .milliseconds(10))
      #expect(outcome == nil)
    }
    // A task still waiting for it would hold the receipt until it settled, for good here.
    let deadline = ContinuousClock.now + .seconds(60)
    while released != nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(released == nil)
  }

  @Test func aSettledReceiptGivesItsOutcomeBeforeTheTimeout() async {
    let receipt = Receipt()
    receipt.settle(.success(7))
    // Within a day: returning at all shows that the timeout's sleep was cancelled, not waited
    // out (the suite's time limit ends the test otherwise).
    let outcome = await WebRoutes.outcome(of: receipt, within: .seconds(86_400))
    #expect(outcome == .success(7))
  }
}
