/// Waits, checking every few milliseconds, until `condition` holds or `timeout` passes.
func eventually(
  _ timeout: Duration = .seconds(5), _ condition: @Sendable () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  while clock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}
