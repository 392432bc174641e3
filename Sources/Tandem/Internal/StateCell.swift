/// The store's state, in memory of its own so an in-place reducer mutates it where it lies.
///
/// Guarded like the state it holds (see ``Store`` `cell`). A pointer rather than an optional
/// field: the in-place reducer gets the address directly, and unspecialized generic code does
/// not go through `Optional<State>`'s value witnesses (each one a runtime metadata lookup).
final class StateCell<State>: @unchecked Sendable {
  /// Where the state lives; initialized exactly when `isInitialized` is true.
  let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
  /// Whether there is a state (false only before a store created without one has reduced its
  /// init action).
  @exclusivity(unchecked) private(set) var isInitialized = false

  init(_ state: State?) {
    if let state {
      pointer.initialize(to: state)
      isInitialized = true
    }
  }

  deinit {
    if isInitialized {
      pointer.deinitialize(count: 1)
    }
    pointer.deallocate()
  }

  /// A copy of the state.
  var value: State? {
    isInitialized ? pointer.pointee : nil
  }

  /// Replaces the state.
  func set(_ state: consuming State) {
    if isInitialized {
      pointer.pointee = state
    } else {
      pointer.initialize(to: state)
      isInitialized = true
    }
  }
}
