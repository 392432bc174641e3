/// The action that carries an event of an ``EventStore`` through the underlying ``Store``: its
/// middleware, its reducer, and, for a store shared by processes, the wire.
///
/// When `Event` is `Codable`, so is the action: it encodes as the event does (for an enum with
/// synthesized `Codable`, an object whose one key is the case name), and an
/// ``ActionRegistry`` that registered the event type with ``ActionRegistry/register(events:prefix:)``
/// tags it by that case name.
public struct EventAction<Event: Sendable>: Action {
  /// The event.
  public var event: Event

  /// Wraps `event`.
  public init(_ event: Event) {
    self.event = event
  }
}

extension EventAction: Encodable where Event: Encodable {
  /// Encodes the event itself, with nothing around it.
  public func encode(to encoder: any Encoder) throws {
    try event.encode(to: encoder)
  }
}

extension EventAction: Decodable where Event: Decodable {
  /// Decodes the event itself.
  public init(from decoder: any Decoder) throws {
    self.event = try Event(from: decoder)
  }
}

extension EventAction: Equatable where Event: Equatable {}
