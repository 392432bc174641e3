import Observation

/// An `@Observable` model of a value selected from a store: UI code that reads ``value`` under
/// Swift's Observation (a SwiftUI view, `withObservationTracking`) is told of a change when,
/// and only when, the selected value changes.
///
/// ```swift
/// let counter = StoreModel(store.selection(\.counter))  // on the main actor
/// // In SwiftUI: Text("\(counter.value)") redraws only when the counter changes.
///
/// let doubled = StoreModel(events.map { $0 * 2 }, on: renderer)  // on the actor `renderer`
/// ```
///
/// The model subscribes to the store when it is made and keeps the selected value, then sets it
/// on the actor it was given (the main actor for ``init(_:)``) for each change, in order. The
/// store skips states whose selected value equals the previous one, so a change elsewhere in the
/// state costs no hop to the actor and no notification. Like an async sequence of the store, it
/// keeps one pending value: a burst of changes while the actor is busy ends with the latest one.
///
/// Read ``value`` on the model's actor (it is written there). Releasing the model ends its
/// subscription; the model does not keep the store alive, and keeps its last value when the
/// store goes.
@Observable
public final class StoreModel<Value: Sendable & Equatable>: @unchecked Sendable {
  /// The selected value, as of the last change set on the model's actor.
  public private(set) var value: Value

  /// Delivers the store's values on the actor; cancelled when the model goes.
  @ObservationIgnored private var delivery: Task<Void, Never>?
  /// How many values the delivery task set (for tests).
  @ObservationIgnored private(set) var assignments = 0
  /// How many values the delivery task received, repeats included (for tests).
  @ObservationIgnored private(set) var deliveries = 0

  /// A model of `selection` updated on the main actor.
  @MainActor public convenience init(_ selection: StoreSelection<Value>) {
    self.init(selection, on: MainActor.shared)
  }

  /// A model of `selection` updated on `actor`.
  public init(_ selection: StoreSelection<Value>, on actor: any Actor) {
    self.value = selection.value
    let values = selection.values
    let target = WeakModel(self)
    delivery = Task {
      await Self.deliver(values, to: target, isolation: actor)
    }
  }

  deinit {
    delivery?.cancel()
  }

  /// Sets the model's value from each of `values`, isolated to `actor`, until the model or the
  /// store goes.
  private static func deliver(
    _ values: StoreObservation<Value>, to target: WeakModel<Value>,
    isolation actor: isolated any Actor
  ) async {
    for await value in values {
      guard let model = target.model else { return }
      model.update(value)
    }
  }

  /// Sets `newValue` unless it equals the current one (the first value is the one the model
  /// started with).
  private func update(_ newValue: Value) {
    deliveries += 1
    guard newValue != value else { return }
    assignments += 1
    value = newValue
  }
}

/// The model, held weakly by its delivery task so that releasing the model ends it.
private final class WeakModel<Value: Sendable & Equatable>: Sendable {
  weak let model: StoreModel<Value>?

  init(_ model: StoreModel<Value>) {
    self.model = model
  }
}
