import Tandem
import Testing

extension ThunkExpectation {
  /// Runs the thunk and records a Swift Testing issue at the caller for each mismatch.
  @discardableResult
  func verify(sourceLocation: SourceLocation = #_sourceLocation) async -> ThunkOutcome<State> {
    let outcome = await run()
    for failure in outcome.failures {
      Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
    return outcome
  }
}
