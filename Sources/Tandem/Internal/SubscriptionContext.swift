import Synchronization

/// What the subscriptions of one store share: the current notification round, and the shared
/// comparisons of ``Subscription/skipRepeats()``.
@usableFromInline final class SubscriptionContext: @unchecked Sendable {
  /// Counts notification rounds. Only the draining thread writes and reads it.
  @exclusivity(unchecked) @usableFromInline var round: UInt64 = 0
  private let memos = Mutex<[ObjectIdentifier: AnyObject]>([:])

  @usableFromInline init() {}

  /// The shared comparison memo for values of type `Value` (made on first use).
  @usableFromInline func memo<Value: Equatable>(for type: Value.Type) -> EqualityMemo<Value> {
    memos.withLock { memos in
      if let memo = memos[ObjectIdentifier(type)] as? EqualityMemo<Value> {
        return memo
      }
      let memo = EqualityMemo<Value>()
      memos[ObjectIdentifier(type)] = memo
      return memo
    }
  }
}

/// The last `==` comparison of two values of one type in a notification round.
///
/// Holding both values keeps any storage they reference alive and unchanged (copy-on-write),
/// so a later pair with the same bits in the same round is the same pair of values and `==`
/// would give the same answer. Only the draining thread uses it.
@usableFromInline final class EqualityMemo<Value: Equatable>: @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var round: UInt64 = .max
  @exclusivity(unchecked) @usableFromInline var pair: (old: Value, new: Value)?
  @exclusivity(unchecked) @usableFromInline var equal = false

  @usableFromInline init() {}

  /// `old == new`, reusing this round's answer for the bitwise-same pair.
  @inlinable func isEqual(_ old: Value, _ new: Value, round: UInt64) -> Bool {
    if self.round == round, let pair, bitwiseEqual(pair.old, old), bitwiseEqual(pair.new, new) {
      return equal
    }
    let equal = old == new
    self.round = round
    self.pair = (old, new)
    self.equal = equal
    return equal
  }
}

/// Whether two values have the same bytes (a sufficient, not necessary, condition for being the
/// same value).
@inlinable func bitwiseEqual<T>(_ first: T, _ second: T) -> Bool {
  withUnsafeBytes(of: first) { firstBytes in
    withUnsafeBytes(of: second) { secondBytes in
      firstBytes.elementsEqual(secondBytes)
    }
  }
}
