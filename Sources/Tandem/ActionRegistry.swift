/// Maps explicit, stable string tags to `Codable` action types, and encodes and decodes actions
/// by tag.
///
/// Actions that cross a process boundary (a follower forwarding what it dispatched to the leader,
/// a recording on disk) travel as a tag and a JSON payload. The tag is chosen by you and never
/// derived from the Swift type name, so renaming or moving a type does not change the wire format.
///
/// ```swift
/// struct AddBookmark: Action, Codable { var url: String }
/// struct RemoveBookmark: Action, Codable { var url: String }
///
/// var registry = ActionRegistry()
/// registry.register(AddBookmark.self, tag: "bookmark.add")
/// registry.register(RemoveBookmark.self, tag: "bookmark.remove")
///
/// let (tag, payload) = try registry.encode(AddBookmark(url: "https://swift.org"))
/// let action = try registry.decode(tag: tag, payload: payload)  // an AddBookmark
/// ```
///
/// A registry is a value: build it once at startup, then share it freely. It is `Sendable`, and a
/// `let` registry is immutable, so any number of threads may encode and decode with it at once.
///
/// Registering two types under one tag, or one type under two tags, is a programmer error and
/// traps with a message naming both. Decoding never traps: an unknown tag or a payload that does
/// not decode throws an ``ActionRegistryError`` that names the tag and the failure.
public struct ActionRegistry: Sendable {
  /// The registered types by tag.
  private var byTag: [String: RegisteredActionType] = [:]
  /// The tag of each registered type.
  var tagByType: [ObjectIdentifier: String] = [:]
  /// The registered event types (``register(events:prefix:)``), in registration order.
  var eventFamilies: [RegisteredEventType] = []
  /// The index in `eventFamilies` of each event type's ``EventAction`` type.
  var eventFamilyIndexByType: [ObjectIdentifier: Int] = [:]

  /// Creates an empty registry.
  public init() {}

  /// Registers the action type `type` under `tag`.
  ///
  /// Registering the same type under the same tag again does nothing. Registering another type
  /// under a tag already in use, or this type under a second tag, traps; so does an empty tag.
  ///
  /// - Parameters:
  ///   - type: A `Codable` action type.
  ///   - tag: The stable name the type's actions travel under, such as `"bookmark.add"`.
  public mutating func register<A: Action & Codable>(_ type: A.Type, tag: String) {
    precondition(!tag.isEmpty, "Tandem: an action tag must not be empty (registering \(A.self))")
    let typeID = ObjectIdentifier(type)
    precondition(
      eventFamilyIndexByType[typeID] == nil,
      "Tandem: \(stableTypeName(type)) is registered as an event type; it has no tag of its own")
    if let existing = byTag[tag] {
      precondition(
        existing.typeID == typeID,
        "Tandem: the action tag \"\(tag)\" is already registered for \(existing.typeName); "
          + "it cannot also name \(stableTypeName(type))")
      return
    }
    if let existingTag = tagByType[typeID] {
      preconditionFailure(
        "Tandem: the action type \(stableTypeName(type)) is already registered under the tag "
          + "\"\(existingTag)\"; it cannot also be registered under \"\(tag)\"")
    }
    byTag[tag] = RegisteredActionType(type, tag: tag)
    tagByType[typeID] = tag
  }

  /// A copy of this registry with `type` registered under `tag`, for building one in an
  /// expression.
  ///
  /// ```swift
  /// let registry = ActionRegistry()
  ///   .registering(AddBookmark.self, tag: "bookmark.add")
  ///   .registering(RemoveBookmark.self, tag: "bookmark.remove")
  /// ```
  public func registering<A: Action & Codable>(_ type: A.Type, tag: String) -> ActionRegistry {
    var copy = self
    copy.register(type, tag: tag)
    return copy
  }

  /// The registered tags, sorted; an event type's appear as its prefix followed by `*`.
  public var tags: [String] {
    (Array(byTag.keys) + eventFamilies.map(\.entry.tag)).sorted()
  }

  /// Whether a type is registered under `tag` (for an event type's tags: whether `tag` starts
  /// with its prefix; whether the case exists shows when a payload is decoded).
  public func contains(tag: String) -> Bool {
    byTag[tag] != nil || eventFamily(forTag: tag) != nil
  }

  /// The tag `type` is registered under, or `nil` (also for an event type, whose tag depends
  /// on each event's case).
  public func tag(for type: any Action.Type) -> String? {
    tagByType[ObjectIdentifier(type)]
  }

  /// The tag the type of `action` is registered under (for an event, its prefix and case), or
  /// `nil`.
  public func tag(of action: any Action) -> String? {
    if let tag = tagByType[ObjectIdentifier(type(of: action))] {
      return tag
    }
    return try? eventFamily(of: action)?.tag(of: action)
  }

  /// The type registered under `tag`, or `nil`: for coders outside this module that decode or
  /// encode payloads their own way (the replication layer's canonical JSON), falling back to
  /// ``decode(tag:payload:)`` and ``encode(_:)`` for the errors.
  package func actionType(forTag tag: String) -> (any (Action & Codable).Type)? {
    byTag[tag]?.type ?? eventFamily(forTag: tag)?.entry.type
  }

  /// Encodes `action` as its tag and a JSON payload (UTF-8, keys sorted).
  ///
  /// - Throws: ``ActionRegistryError/unregisteredType(_:)`` when the action's type is not
  ///   registered, ``ActionRegistryError/unencodable(tag:reason:)`` when its `encode(to:)` fails.
  public func encode(
    _ action: any Action
  ) throws(ActionRegistryError) -> (tag: String, payload: [UInt8]) {
    if let family = eventFamily(of: action) {
      do {
        return (try family.tag(of: action), try family.entry.encode(action))
      } catch {
        throw .unencodable(tag: family.entry.tag, reason: describeCodingError(error))
      }
    }
    guard let tag = tag(of: action), let entry = byTag[tag] else {
      throw .unregisteredType(stableTypeName(type(of: action)))
    }
    do {
      return (tag, try entry.encode(action))
    } catch {
      throw .unencodable(tag: tag, reason: describeCodingError(error))
    }
  }

  /// Decodes the action registered under `tag` from its JSON `payload`.
  ///
  /// Never traps on bad input.
  ///
  /// - Throws: ``ActionRegistryError/unknownTag(_:)`` when no type is registered under `tag`,
  ///   ``ActionRegistryError/undecodable(tag:reason:)`` when the payload is not valid JSON for
  ///   that type (the reason names the coding path and the problem).
  public func decode(tag: String, payload: [UInt8]) throws(ActionRegistryError) -> any Action {
    if byTag[tag] == nil, let family = eventFamily(forTag: tag) {
      return try decodeEvent(tag: tag, family: family) { try family.entry.decode(payload) }
    }
    guard let entry = byTag[tag] else { throw .unknownTag(tag) }
    do {
      return try entry.decode(payload)
    } catch {
      throw .undecodable(tag: tag, reason: describeCodingError(error))
    }
  }

  /// Decodes the action registered under `tag` from the `payload` member of the JSON object in
  /// `object` (a recorded line), without copying the member out first.
  func decode(
    tag: String, payloadMemberOf object: [UInt8]
  ) throws(ActionRegistryError)
    -> any Action
  {
    if byTag[tag] == nil, let family = eventFamily(forTag: tag) {
      return try decodeEvent(tag: tag, family: family) {
        try family.entry.decodePayloadMember(object)
      }
    }
    guard let entry = byTag[tag] else { throw .unknownTag(tag) }
    do {
      return try entry.decodePayloadMember(object)
    } catch {
      throw .undecodable(tag: tag, reason: describeCodingError(error))
    }
  }

  /// The registered types in tag order, for the fingerprint.
  var entriesSortedByTag: [RegisteredActionType] {
    (Array(byTag.values) + eventFamilies.map(\.entry)).sorted { $0.tag < $1.tag }
  }
}
