import Testing

@testable import TandemSync

@Suite("Dropped messages are reported in the log, one line per interval")
struct DroppedMessagesTests {
  let start = ContinuousClock.now
  let interval = Duration.seconds(10)

  @Test func nothingDroppedIsNothingToReport() {
    var dropped = DroppedMessages()
    let line = dropped.report(now: start, every: interval)
    #expect(line == nil)
  }

  @Test func theFirstDropsAreReportedAtOnceWithTheirCountsByReason() {
    var dropped = DroppedMessages()
    for _ in 0..<3 { dropped.count(.unsent) }
    dropped.count(.replyBytesLimit)
    let line = dropped.report(now: start, every: interval) ?? ""
    #expect(line.hasPrefix("dropped messages: 3 because the peer had gone"))
    #expect(line.contains("; 1 because the connection had large replies queued"))
    let again = dropped.report(now: start, every: interval)
    #expect(again == nil)
  }

  @Test func laterDropsWaitForTheIntervalAndAreReportedOnce() {
    var dropped = DroppedMessages()
    dropped.count(.unsent)
    _ = dropped.report(now: start, every: interval)
    for _ in 0..<1000 { dropped.count(.unsent) }
    let early = dropped.report(now: start + .seconds(9), every: interval)
    #expect(early == nil)
    let line = dropped.report(now: start + .milliseconds(12_340), every: interval) ?? ""
    #expect(line.hasPrefix("dropped messages in the last 12.3 s: 1000 because the peer had gone"))
    #expect(!line.contains("large replies"))
    let after = dropped.report(now: start + .seconds(30), every: interval)
    #expect(after == nil)
  }
}
