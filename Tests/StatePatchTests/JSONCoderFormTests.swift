import Foundation
import StatePatch
import Testing

private struct Plain: Codable, Equatable {
  var name: String
  var when: Date
  var bytes: Data
  var scores: [String: Double]
}

private struct WithURL: Codable, Equatable {
  var links: [URL]
}

private struct WithDecimal: Codable, Equatable {
  var price: Decimal?
}

@Suite("Foundation coder forms")
struct JSONCoderFormTests {
  fileprivate let plain = Plain(
    name: "a", when: Date(timeIntervalSinceReferenceDate: 3), bytes: Data([1, 2]),
    scores: ["x": 0.5])

  @Test("a value without URL or Decimal encodes to its canonical JSON")
  func plainValueEncodes() throws {
    var encoder = StateEncoder()
    let json = try encoder.encodeMatchingJSONEncoder(plain)
    var reference = StateEncoder()
    #expect(json == (try reference.encode(plain)))
  }

  @Test("a URL or a Decimal anywhere in the value leaves the encoding to JSONEncoder")
  func foundationFormsAreRefusedWhenEncoding() throws {
    var encoder = StateEncoder()
    #expect(
      try encoder.encodeMatchingJSONEncoder(WithURL(links: [URL(string: "https://a.b")!])) == nil)
    #expect(try encoder.encodeMatchingJSONEncoder(WithDecimal(price: 1)) == nil)
    #expect(try encoder.encodeMatchingJSONEncoder(WithDecimal(price: nil)) != nil)
  }

  @Test("a value without URL or Decimal decodes from its canonical JSON")
  func plainValueDecodes() throws {
    var encoder = StateEncoder()
    let json = try encoder.encode(plain)
    var decoder = StateDecoder()
    #expect(try decoder.decodeMatchingJSONDecoder(Plain.self, from: json) == plain)
  }

  @Test("a URL or a Decimal met while decoding leaves the decoding to JSONDecoder")
  func foundationFormsAreRefusedWhenDecoding() throws {
    var decoder = StateDecoder()
    #expect(
      try decoder.decodeMatchingJSONDecoder(WithURL.self, from: ["links": ["https://a.b"]]) == nil)
    #expect(try decoder.decodeMatchingJSONDecoder(WithDecimal.self, from: ["price": 1]) == nil)
    #expect(
      try decoder.decodeMatchingJSONDecoder(WithDecimal.self, from: [:]) == WithDecimal(price: nil))
  }

  @Test("other failures still throw, naming the path")
  func otherFailuresThrow() {
    var decoder = StateDecoder()
    let error = #expect(throws: StateDecodingError.self) {
      try decoder.decodeMatchingJSONDecoder(Plain.self, from: ["name": 1])
    }
    #expect(error?.path.description == "/name")
  }
}
