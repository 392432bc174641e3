import Testing

@testable import TandemProtocol

private let e = Epoch(rawValue: 7)
private let other = Epoch(rawValue: 8)

/// When a leader taking over a shared journal mints a new epoch: a table of what it knows.
@Suite("Takeover epoch")
struct TakeoverEpochTests {
  @Test(arguments: [
    // published only after commits, nothing more known: the history continues
    (TakeoverEpoch.Facts(journalEpoch: e, journalSequence: 10), false),
    // the journal minted when opened
    (TakeoverEpoch.Facts(journalEpoch: e, journalSequence: 10, journalMinted: "new"), true),
    // published before committing, how far unknown
    (TakeoverEpoch.Facts(journalEpoch: e, journalSequence: 10, publishedBeforeCommit: true), true),
    // published before committing, but known to be within the journal
    (
      TakeoverEpoch.Facts(
        journalEpoch: e, journalSequence: 10, publishedBeforeCommit: true, published: (e, 10)),
      false
    ),
    // known to have published beyond the journal's end
    (TakeoverEpoch.Facts(journalEpoch: e, journalSequence: 10, published: (e, 11)), true),
    // known to have published in another epoch than the journal's
    (TakeoverEpoch.Facts(journalEpoch: e, journalSequence: 10, published: (other, 3)), true),
    // known to have published less than the journal holds (commits it never published)
    (TakeoverEpoch.Facts(journalEpoch: e, journalSequence: 10, published: (e, 4)), false),
  ])
  func decides(facts: TakeoverEpoch.Facts, mints: Bool) {
    let decision = TakeoverEpoch.decide(facts)
    if mints {
      guard case .mint(let reason) = decision else {
        Issue.record("expected a new epoch for \(facts)")
        return
      }
      #expect(!reason.isEmpty)
    } else {
      #expect(decision == .continued)
    }
  }
}
