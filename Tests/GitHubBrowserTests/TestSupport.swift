import GitHubBrowser
import Testing

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

/// Checks that `detail` holds the README `full`, longer than the state keeps, cut as the state
/// cuts it: to the whole characters that fit in ``BrowserState/maximumReadmeBytes``, with the
/// whole README's size.
func expectReadme(
  of detail: RepositoryDetail, cutFrom full: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let bound = BrowserState.maximumReadmeBytes
  #expect(full.utf8.count > bound, sourceLocation: sourceLocation)
  guard let cut = detail.readme else {
    Issue.record("the detail has no README", sourceLocation: sourceLocation)
    return
  }
  #expect(cut.utf8.count <= bound, sourceLocation: sourceLocation)
  // Whole characters only (a prefix by Character), and no room left for the next one.
  #expect(full.hasPrefix(cut), sourceLocation: sourceLocation)
  let next = full.dropFirst(cut.count).first
  #expect(cut.utf8.count + (next?.utf8.count ?? 0) > bound, sourceLocation: sourceLocation)
  #expect(detail.fullReadmeBytes == full.utf8.count, sourceLocation: sourceLocation)
}

/// Checks that `kept` is `full`, longer than `bound` allows, cut as the state cuts it: the
/// whole characters that fit in the bound with "…" after them.
func expectCut(
  _ kept: String?, from full: String, to bound: TextBound,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let limit = bound.maximumBytes
  #expect(full.utf8.count > limit, sourceLocation: sourceLocation)
  guard let kept, kept.hasSuffix("…") else {
    Issue.record(
      "\(bound) was not cut: \(kept.map { "\($0.prefix(40))…" } ?? "nil")",
      sourceLocation: sourceLocation)
    return
  }
  #expect(kept.utf8.count <= limit, sourceLocation: sourceLocation)
  // Whole characters only (a prefix by Character), and no room left for the next one.
  let prefix = kept.dropLast()
  #expect(full.hasPrefix(prefix), sourceLocation: sourceLocation)
  let next = full.dropFirst(prefix.count).first
  #expect(kept.utf8.count + (next?.utf8.count ?? 0) > limit, sourceLocation: sourceLocation)
}
