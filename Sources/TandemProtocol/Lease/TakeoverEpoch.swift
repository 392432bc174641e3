/// Whether a leader that takes a shared journal over continues its history (followers keep
/// their replicas and catch up) or must mint a new epoch (followers resync).
///
/// A follower's replica may show every delta any earlier leader *published*. The history may
/// continue exactly when each of them is in the journal the new leader recovered from: then the
/// new leader's history extends every replica. Tandem's leaders publish a delta only after its
/// batch committed, with the lease's fencing epoch checked in that same transaction, so a
/// takeover continues, unless:
///
/// - the journal itself minted an epoch when it was opened (new, or history that may be lost);
/// - the previous holder published before committing (a leader built so, or a fault) and
///   nothing shows how far its followers got;
/// - the previous holder is known to have published beyond the journal's end, or in another
///   epoch than the journal's.
///
/// A known publication mark within the journal settles it: the history continues.
package enum TakeoverEpoch: Sendable, Equatable {
  /// Keep the journal's epoch.
  case continued
  /// Mint a new one, for `reason`.
  case mint(reason: String)

  /// What the new leader knows when it takes over.
  package struct Facts: Sendable, Equatable {
    /// The recovered journal's epoch and its last committed sequence.
    package var journalEpoch: Epoch
    package var journalSequence: UInt64
    /// Why the journal minted an epoch when it was opened, if it did.
    package var journalMinted: String?
    /// Whether the previous holder may have published a delta before its batch committed.
    package var publishedBeforeCommit: Bool
    /// The furthest the previous holder is known to have published, if known.
    package var published: (epoch: Epoch, sequence: UInt64)?

    package init(
      journalEpoch: Epoch, journalSequence: UInt64, journalMinted: String? = nil,
      publishedBeforeCommit: Bool = false, published: (epoch: Epoch, sequence: UInt64)? = nil
    ) {
      self.journalEpoch = journalEpoch
      self.journalSequence = journalSequence
      self.journalMinted = journalMinted
      self.publishedBeforeCommit = publishedBeforeCommit
      self.published = published
    }

    package static func == (a: Facts, b: Facts) -> Bool {
      a.journalEpoch == b.journalEpoch && a.journalSequence == b.journalSequence
        && a.journalMinted == b.journalMinted && a.publishedBeforeCommit == b.publishedBeforeCommit
        && a.published?.epoch == b.published?.epoch
        && a.published?.sequence == b.published?.sequence
    }
  }

  /// The rule, applied to `facts`.
  package static func decide(_ facts: Facts) -> TakeoverEpoch {
    if let reason = facts.journalMinted { return .mint(reason: reason) }
    if let published = facts.published {
      guard published.epoch == facts.journalEpoch else {
        return .mint(
          reason: "the previous leader published in epoch \(published.epoch), which the "
            + "journal does not hold")
      }
      guard published.sequence <= facts.journalSequence else {
        return .mint(
          reason: "the previous leader published through \(published.sequence) but the "
            + "journal ends at \(facts.journalSequence): followers may show deltas it lacks")
      }
      return .continued
    }
    if facts.publishedBeforeCommit {
      return .mint(
        reason: "the previous leader published deltas before committing them: followers may "
          + "show deltas the journal lacks")
    }
    return .continued
  }
}
