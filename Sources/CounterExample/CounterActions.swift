import Tandem

/// Adds one to the count (ReSwift's `CounterActionIncrease`); tag `counter.increment`.
///
/// `client` is the id of the follower that sent it, counted in
/// ``CounterState/actionsByClient``; it may be absent (`{}` is a valid payload).
public struct IncrementCounter: Action, Codable, Equatable, Sendable {
  /// The client id of the follower that sent it, if it says.
  public var client: String?
  /// An increment, from `client` when given.
  public init(client: String? = nil) { self.client = client }
}

/// Subtracts one from the count (ReSwift's `CounterActionDecrease`); tag `counter.decrement`.
public struct DecrementCounter: Action, Codable, Equatable, Sendable {
  /// The client id of the follower that sent it, if it says.
  public var client: String?
  /// A decrement, from `client` when given.
  public init(client: String? = nil) { self.client = client }
}

/// Replaces the shared note; tag `counter.note`. Large notes make large deltas, which is how the
/// integration test fills a follower's high-water mark.
public struct SetNote: Action, Codable, Equatable, Sendable {
  /// The new note.
  public var text: String
  /// The client id of the follower that sent it, if it says.
  public var client: String?
  /// A note of `text`, from `client` when given.
  public init(text: String, client: String? = nil) {
    self.text = text
    self.client = client
  }
}

/// The counter's actions under their stable tags: `counter.increment`, `counter.decrement`,
/// `counter.note`.
public let counterRegistry = ActionRegistry()
  .registering(IncrementCounter.self, tag: "counter.increment")
  .registering(DecrementCounter.self, tag: "counter.decrement")
  .registering(SetNote.self, tag: "counter.note")
