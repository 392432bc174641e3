import Synchronization

/// A process-wide counter for unique `inproc` names.
final class AtomicCounter: Sendable {
  private let value = Atomic<Int>(0)

  /// The next number, starting at 1.
  func next() -> Int {
    value.add(1, ordering: .relaxed).newValue
  }
}
