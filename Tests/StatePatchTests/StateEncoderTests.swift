import Foundation
import StatePatch
import Testing

private func encode<T: Encodable>(_ value: T) throws -> JSONValue {
  var encoder = StateEncoder()
  return try encoder.encode(value)
}

private func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
  var decoder = StateDecoder()
  return try decoder.decode(type, from: value)
}

private struct Key: Codable, Hashable {
  var a: Int
}

@Test func encodedObjectMembersAreSortedByUTF8Bytes() throws {
  let json = try encode(["b": 1, "a": 2, "é": 3, "Z": 4])
  guard case .object(let object) = json else {
    Issue.record("not an object: \(json)")
    return
  }
  #expect(object.members.map(\.key) == ["Z", "a", "b", "é"])
}

@Test func integersStayExactAndKeepTheirKind() throws {
  #expect(try encode(Int64.min) == .int(Int64.min))
  #expect(try encode(UInt64.max) == .uint(UInt64.max))
  #expect(try encode(UInt64(5)) == .int(5))
  #expect(try decode(UInt64.self, .uint(UInt64.max)) == UInt64.max)
  #expect(throws: StateDecodingError.self) { try decode(Int8.self, 300) }
}

@Test func negativeZeroHasTheSpellingOfZero() throws {
  #expect(try encode(-0.0) == .double(0))
  #expect(try encode([-0.0 as Float]) == [.double(0)])
}

@Test func nonFiniteNumbersThrowWithTheirPath() throws {
  let error = #expect(throws: StateEncodingError.self) {
    try encode(["x": [1.0, .nan]])
  }
  #expect(error?.path == "/x/1")
}

@Test func dataIsBase64() throws {
  let data = Data([0, 1, 2, 250])
  #expect(try encode(data) == "AAEC+g==")
  #expect(try decode(Data.self, "AAEC+g==") == data)
}

@Test func setsAreSortedArrays() throws {
  let set: Set<String> = ["b", "c", "a", "ab"]
  #expect(try encode(set) == ["a", "ab", "b", "c"])
  #expect(try decode(Set<String>.self, try encode(set)) == set)
}

@Test func intKeyedDictionariesAreSortedObjects() throws {
  let json = try encode([10: "ten", 9: "nine"])
  #expect(json == ["10": "ten", "9": "nine"])
  #expect(try decode([Int: String].self, json) == [10: "ten", 9: "nine"])
}

@Test func otherKeyedDictionariesAreSortedFlatArrays() throws {
  let dictionary = [Key(a: 2): "two", Key(a: 1): "one", Key(a: 3): "three"]
  let json = try encode(dictionary)
  #expect(json == [["a": 1], "one", ["a": 2], "two", ["a": 3], "three"])
  #expect(try decode([Key: String].self, json) == dictionary)
}

@Test func nilOptionalMembersAreAbsent() throws {
  let profile = Profile(name: "n", nickname: nil, scores: [:], status: .idle, ratio: 1)
  let json = try encode(profile)
  #expect(json == ["name": "n", "scores": [:], "status": ["idle": [:]], "ratio": 1.0])
  #expect(try decode(Profile.self, json) == profile)
}

@Test func decodingErrorsNameThePath() throws {
  let error = #expect(throws: StateDecodingError.self) {
    try decode([Item].self, [["id": 1, "title": "t", "stars": "many", "tags": []]])
  }
  #expect(error?.path == "/0/stars")
}
