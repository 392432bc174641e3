#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An event type registered with an ``ActionRegistry`` (``ActionRegistry/register(events:prefix:)``):
/// its actions are ``EventAction``s, tagged by the prefix and the case of each event.
struct RegisteredEventType: Sendable {
  /// What every tag of the type starts with.
  let prefix: String
  /// The ``EventAction`` type's coders, under the tag `prefix*` (for the fingerprint).
  let entry: RegisteredActionType
  /// The case key of an event action: the one key of the object its event encodes as.
  let caseKey: @Sendable (any Action) throws -> String

  init<Event: Codable & Sendable>(_ type: Event.Type, prefix: String) {
    self.prefix = prefix
    self.entry = RegisteredActionType(EventAction<Event>.self, tag: prefix + "*")
    self.caseKey = { action in
      guard let action = action as? EventAction<Event> else {
        preconditionFailure("Tandem: \(Swift.type(of: action)) was tagged as \(Event.self)")
      }
      let object = try JSONEncoder().encode(action.event)
      let keys = try JSONDecoder().decode([String: IgnoredJSONValue].self, from: object).keys
      guard keys.count == 1, let key = keys.first, !key.isEmpty else {
        throw EventTagError(typeName: stableTypeName(Event.self))
      }
      return key
    }
  }

  /// The tag of `action`, an action of this type: the prefix and the event's case key.
  func tag(of action: any Action) throws -> String {
    prefix + (try caseKey(action))
  }
}

/// Any JSON value, skipped.
private struct IgnoredJSONValue: Decodable {
  init(from decoder: any Decoder) throws {}
}

/// An event that does not encode as an object of one key, so it has no case to be tagged by.
struct EventTagError: Error, CustomStringConvertible {
  let typeName: String

  var description: String {
    "an event of \(typeName) does not encode as an object with one key (its case): "
      + "register an enum with synthesized Codable, or with coding keys of its own"
  }
}
