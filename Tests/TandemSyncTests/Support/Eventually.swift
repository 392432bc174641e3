import Testing

/// Waits until `condition` holds, checking every few milliseconds, for at most `timeout`;
/// records an issue naming `what` when it never does. A bounded wait on a condition, not a
/// sleep standing in for synchronization.
@discardableResult
func eventually(
  _ what: String, timeout: Duration = .seconds(10),
  sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  if try await condition() { return true }
  Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
  return false
}
