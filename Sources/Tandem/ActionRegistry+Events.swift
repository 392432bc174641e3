extension ActionRegistry {
  /// Registers the event type of an ``EventStore`` once: each event travels under a tag made of
  /// `prefix` and the name of its case.
  ///
  /// ```swift
  /// enum ButtonEvent: Codable, Sendable { case plus, minus, add(Int) }
  ///
  /// let registry = ActionRegistry().registering(events: ButtonEvent.self, prefix: "button.")
  /// // .plus travels as the tag "button.plus" with the payload {"plus":{}},
  /// // .add(2) as "button.add" with {"add":{"_0":2}}.
  /// ```
  ///
  /// The event type is an enum with `Codable` synthesized by Swift (or written to the same
  /// shape: an object whose one key names the case). The case key is what Swift's synthesized
  /// coding uses: the case's name, or the raw value given to it in the enum's `CodingKeys`,
  /// which is how to **pin** a tag: with `enum CodingKeys: String, CodingKey { case plus =
  /// "increment", minus, add }` the case `plus` travels as `button.increment` even after it is
  /// renamed (keep the raw value). Renaming a case without a pinned key changes its tag and its
  /// payload, so a leader and followers built before and after the rename refuse each other
  /// (their fingerprints differ only if the decoding shape changed; rename with care).
  ///
  /// The payload is the event's whole encoding, so its key repeats the tag's case: decoding
  /// refuses a payload whose case is not the tag's.
  ///
  /// Tags of explicitly registered action types take precedence; an event type's tags are the
  /// tags that start with its prefix, the longest prefix winning when several match. Registering
  /// the same event type again with the same prefix does nothing; registering it with another
  /// prefix, or another event type with the same prefix, traps.
  ///
  /// - Parameters:
  ///   - events: The event type, `Codable`.
  ///   - prefix: What all its tags start with, such as `"button."`; empty by default, which
  ///     makes the tags the bare case names.
  public mutating func register<Event: Codable & Sendable>(events: Event.Type, prefix: String = "")
  {
    let family = RegisteredEventType(events, prefix: prefix)
    let typeID = family.entry.typeID
    if let existing = eventFamilyIndexByType[typeID] {
      precondition(
        eventFamilies[existing].prefix == prefix,
        "Tandem: the event type \(stableTypeName(events)) is already registered with the prefix "
          + "\"\(eventFamilies[existing].prefix)\"; it cannot also have the prefix \"\(prefix)\"")
      return
    }
    if let other = eventFamilies.first(where: { $0.prefix == prefix }) {
      preconditionFailure(
        "Tandem: the event prefix \"\(prefix)\" is already registered for "
          + "\(other.entry.typeName); it cannot also name \(stableTypeName(events))")
    }
    precondition(
      tagByType[typeID] == nil,
      "Tandem: \(stableTypeName(EventAction<Event>.self)) is already registered under a tag")
    eventFamilyIndexByType[typeID] = eventFamilies.count
    eventFamilies.append(family)
  }

  /// A copy of this registry with the event type `events` registered (see
  /// ``register(events:prefix:)``), for building one in an expression.
  public func registering<Event: Codable & Sendable>(
    events: Event.Type, prefix: String = ""
  ) -> ActionRegistry {
    var copy = self
    copy.register(events: events, prefix: prefix)
    return copy
  }

  /// The event type whose tags `tag` belongs to (the longest matching prefix), if any.
  func eventFamily(forTag tag: String) -> RegisteredEventType? {
    eventFamilies.filter { tag.hasPrefix($0.prefix) && tag.count > $0.prefix.count }
      .max { $0.prefix.count < $1.prefix.count }
  }

  /// The registered event type of `action`, if it is an event action.
  func eventFamily(of action: any Action) -> RegisteredEventType? {
    eventFamilyIndexByType[ObjectIdentifier(type(of: action))].map { eventFamilies[$0] }
  }

  /// Decodes an event action with `decode`, then checks that its case is the one `tag` names.
  func decodeEvent(
    tag: String, family: RegisteredEventType, _ decode: () throws -> any Action
  ) throws(ActionRegistryError) -> any Action {
    let action: any Action
    let actual: String
    do {
      action = try decode()
      actual = try family.tag(of: action)
    } catch {
      throw .undecodable(tag: tag, reason: describeCodingError(error))
    }
    guard actual == tag else {
      throw .undecodable(tag: tag, reason: "the payload holds the event \"\(actual)\"")
    }
    return action
  }
}
