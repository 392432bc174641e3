import Testing

@testable import Tandem

/// An event enum whose `plus` case is pinned to another key by its coding keys.
enum PinnedEvent: Codable, Sendable, Equatable {
  case plus
  case minus
  case add(Int)

  enum CodingKeys: String, CodingKey {
    case plus = "increment"
    case minus
    case add
  }
}

@Suite struct EventRegistryTests {
  private let registry = ActionRegistry().registering(events: ButtonEvent.self, prefix: "button.")

  @Test func eventTagsAreThePrefixAndTheCaseName() throws {
    #expect(registry.tag(of: EventAction(ButtonEvent.plus)) == "button.plus")
    #expect(registry.tag(of: EventAction(ButtonEvent.add(2))) == "button.add")
    let (tag, payload) = try registry.encode(EventAction(ButtonEvent.add(2)))
    #expect(tag == "button.add")
    #expect(String(decoding: payload, as: UTF8.self) == #"{"add":{"_0":2}}"#)
  }

  @Test func eventsDecodeFromTheirTagAndPayload() throws {
    for event in [ButtonEvent.plus, .minus, .add(-3)] {
      let (tag, payload) = try registry.encode(EventAction(event))
      let decoded = try registry.decode(tag: tag, payload: payload)
      #expect((decoded as? EventAction<ButtonEvent>)?.event == event)
    }
  }

  @Test func aPayloadOfAnotherCaseThanTheTagsIsRefused() {
    #expect(throws: ActionRegistryError.self) {
      try registry.decode(tag: "button.minus", payload: Array(#"{"plus":{}}"#.utf8))
    }
    #expect(throws: ActionRegistryError.self) {
      try registry.decode(tag: "button.nothing", payload: Array(#"{"nothing":{}}"#.utf8))
    }
    #expect(throws: ActionRegistryError.unknownTag("other.plus")) {
      try registry.decode(tag: "other.plus", payload: Array(#"{"plus":{}}"#.utf8))
    }
  }

  @Test func codingKeysPinATag() throws {
    let pinned = ActionRegistry().registering(events: PinnedEvent.self)
    let (tag, payload) = try pinned.encode(EventAction(PinnedEvent.plus))
    #expect(tag == "increment")
    #expect(pinned.tag(of: EventAction(PinnedEvent.minus)) == "minus")
    let decoded = try pinned.decode(tag: tag, payload: payload)
    #expect((decoded as? EventAction<PinnedEvent>)?.event == .plus)
  }

  @Test func explicitTagsWinAndTheLongestPrefixDecides() throws {
    struct Reset: Action, Codable {}
    let mixed = ActionRegistry()
      .registering(events: ButtonEvent.self)
      .registering(events: PinnedEvent.self, prefix: "pinned.")
      .registering(Reset.self, tag: "reset")
    #expect(mixed.tags == ["*", "pinned.*", "reset"])
    #expect(try mixed.decode(tag: "reset", payload: Array("{}".utf8)) is Reset)
    let pinned = try mixed.decode(tag: "pinned.minus", payload: Array(#"{"minus":{}}"#.utf8))
    #expect((pinned as? EventAction<PinnedEvent>)?.event == .minus)
    let button = try mixed.decode(tag: "minus", payload: Array(#"{"minus":{}}"#.utf8))
    #expect((button as? EventAction<ButtonEvent>)?.event == .minus)
  }

  @Test func theFingerprintNamesTheEventType() {
    #expect(
      registry.schemaDescription.contains("button.*\tTandem.EventAction<TandemTests.ButtonEvent>"))
    let other = ActionRegistry().registering(events: PinnedEvent.self, prefix: "button.")
    #expect(registry.fingerprint != other.fingerprint)
  }
}
