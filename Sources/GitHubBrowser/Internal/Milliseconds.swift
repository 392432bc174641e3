extension Int64 {
  /// These seconds in milliseconds, clamped to `Int64`'s range: times come from GitHub's
  /// headers and from other processes' actions, and a far-off one must not trap.
  var secondsInMilliseconds: Int64 {
    let (milliseconds, overflow) = multipliedReportingOverflow(by: 1000)
    guard overflow else { return milliseconds }
    return self < 0 ? .min : .max
  }
}
