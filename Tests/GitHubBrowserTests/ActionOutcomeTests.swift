import Testing

@testable import GitHubBrowser
@testable import TandemSync

@Suite("The web front end waits for an action's outcome")
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
    let deadline = ContinuousClock.now + .seconds(5)
    while released != nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(released == nil)
  }

  @Test func aSettledReceiptGivesItsOutcomeBeforeTheTimeout() async {
    let receipt = Receipt()
    receipt.settle(.success(7))
    let clock = ContinuousClock()
    let start = clock.now
    let outcome = await WebRoutes.outcome(of: receipt, within: .seconds(30))
    #expect(outcome == .success(7))
    #expect(clock.now - start < .seconds(5))
  }
}
