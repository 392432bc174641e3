/// Waits, checking every few milliseconds, until `condition` holds or `timeout` passes (a
/// deadline only: generous, since the fixture's handlers wait for the cooperative pool, which
/// the full parallel run keeps busy for seconds on a 2-core machine).
func eventually(
  _ timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  while clock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}
