
import Foundation
import StatePatch
import Tandem
@testable import TandemProtocol
@testable import TandemSync
import Testing

/// An action with most shapes a payload can take.
private struct Shelve: Action, Codable, Equatable {
  struct Book: Codable, Equatable {
    var title: String
    var pages: Int?
  }

  var shelf: Int
  var books: [Book]
  var labels: Set<String>
  var counts: [String: Int]
  var weight: Double
  var ratio: Float
  var when: Date
  var cover: Data
  var note: String?
}

/// An action whose `URL` and `Decimal` have another form under Foundation's coders.
private struct Link: Action, Codable, Equatable {
  var target: URL
  var price: Decimal
}

private let registry = ActionRegistry()
  .registering(Shelve.self, tag: "shelf.put")
  .registering(Link.self, tag: "shelf.link")

private let shelve = Shelve(
  shelf: 3, books: [.init(title: "Emma", pages: 474), .init(title: "\"Dune\"\n", pages: nil)],
  labels: ["b", "a", "é"], counts: ["x": 1, "B": 2], weight: 5, ratio: 0.1,
  when: Date(timeIntervalSinceReferenceDate: 12.5), cover: Data([0, 1, 254]), note: nil)

@Suite("Action payloads")
struct ActionPayloadTests {
  @Test("a follower's payload decodes to the same action through the registry and the leader")
  func payloadRoundTrips() throws {
    let (tag, payload) = try ActionPayload.encode(shelve, registry: registry)
    #expect(tag == "shelf.put")
    #expect(try registry.decode(tag: tag, payload: payload) as? Shelve == shelve)
    #expect(
      try ActionPayload.decode(tag: tag, payload: payload, registry: registry) as? Shelve
        == shelve)
  }

  @Test("a follower's payload is the action's canonical JSON")
  func payloadIsCanonical() throws {
    var encoder = StateEncoder()
    let canonical = try encoder.encode(shelve).canonicalBytes()
    #expect(try ActionPayload.encode(shelve, registry: registry).payload == canonical)
  }

  @Test("the leader reads the integer literal -0 as the double 0.0, JSONDecoder as -0.0")
  func negativeZeroLiteral() throws {
    var payload = try ActionPayload.encode(shelve, registry: registry).payload
    let text = String(decoding: payload, as: UTF8.self)
    payload = Array(text.replacingOccurrences(of: #""weight":5.0"#, with: #""weight":-0"#).utf8)
    let leader = try ActionPayload.decode(tag: "shelf.put", payload: payload, registry: registry)
    let reference = try registry.decode(tag: "shelf.put", payload: payload)
    #expect((leader as? Shelve)?.weight.sign == .plus)
    #expect((reference as? Shelve)?.weight.sign == .minus)
  }

  @Test("the leader reads the registry's own payloads (JSONEncoder's) to the same action")
  func registryPayloadsDecode() throws {
    let (tag, payload) = try registry.encode(shelve)
    #expect(
      try ActionPayload.decode(tag: tag, payload: payload, registry: registry) as? Shelve
        == shelve)
  }

  @Test("a URL and a Decimal travel in JSONEncoder's form, a string and a number")
  func foundationFormsTravelAsJSONEncoderWrites() throws {
    let link = Link(
      target: URL(string: "https://swift.org/a?b=c")!, price: Decimal(string: "12.25")!)
    let (tag, payload) = try ActionPayload.encode(link, registry: registry)
    #expect(payload == (try registry.encode(link)).payload)
    #expect(String(decoding: payload, as: UTF8.self).contains(#""target":"https://swift.org"#))
    #expect(
      try ActionPayload.decode(tag: tag, payload: payload, registry: registry) as? Link
        == link)
  }

  @Test("an unknown tag is rejected as unknownTag")
  func unknownTag() {
    #expect(throws: ActionRegistryError.unknownTag("shelf.burn")) {
      try ActionPayload.decode(tag: "shelf.burn", payload: Array("{}".utf8), registry: registry)
    }
  }

  @Test("an undecodable payload is rejected with the registry's words, naming the coding path")
  func undecodableMatchesRegistry() {
    let payloads = [
      #"{"shelf":"three"}"#, #"{"shelf":3}"#, "not json", #"{"shelf":3.5,"books":[]}"#,
      #"{"shelf":3,"books":[{"pages":1}],"labels":[],"counts":{},"weight":1,"ratio":1,"when":0,"cover":""}"#,
    ]
    for text in payloads {
      let payload = Array(text.utf8)
      let expected = #expect(throws: ActionRegistryError.self) {
        try registry.decode(tag: "shelf.put", payload: payload)
      }
      let actual = #expect(throws: ActionRegistryError.self) {
        try ActionPayload.decode(tag: "shelf.put", payload: payload, registry: registry)
      }
      #expect(actual == expected, "\(text)")
    }
    let missingTitle = Array(payloads[4].utf8)
    let error = #expect(throws: ActionRegistryError.self) {
      try ActionPayload.decode(tag: "shelf.put", payload: missingTitle, registry: registry)
    }
    guard case .undecodable("shelf.put", let reason) = error else {
      Issue.record("expected undecodable, got \(String(describing: error))")
      return
    }
    #expect(reason.contains("missing key \"title\"") && reason.contains("$.books[0]"))
  }

  @Test("a payload the canonical parser refuses decodes as the registry decodes it")
  func lenientPayloadsFollowTheRegistry() throws {
    // Duplicate keys and an integer written with a fraction: JSONDecoder's reading wins.
    let payload = Array(
      #"{"shelf":3.0,"shelf":4,"books":[],"labels":[],"counts":{},"weight":1,"ratio":1,"when":0,"cover":""}"#
        .utf8)
    let expected = try registry.decode(tag: "shelf.put", payload: payload) as? Shelve
    let actual = try ActionPayload.decode(tag: "shelf.put", payload: payload, registry: registry)
    #expect(actual as? Shelve == expected)
  }

  @Test("an action that does not encode fails with the registry's error")
  func unencodableMatchesRegistry() {
    var broken = shelve
    broken.weight = .nan
    let expected = #expect(throws: ActionRegistryError.self) { try registry.encode(broken) }
    let actual = #expect(throws: ActionRegistryError.self) {
      try ActionPayload.encode(broken, registry: registry)
    }
    #expect(actual == expected)
  }

  @Test("an unregistered action type fails as unregisteredType")
  func unregisteredType() {
    struct Stray: Action, Codable {}
    let error = #expect(throws: ActionRegistryError.self) {
      try ActionPayload.encode(Stray(), registry: registry)
    }
    guard case .unregisteredType = error else {
      Issue.record("expected unregisteredType, got \(String(describing: error))")
      return
    }
  }
}
