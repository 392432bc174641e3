import Testing

@testable import StatePatch

private func canonical(_ value: JSONValue) -> String {
  value.canonicalText
}

@Test func keysAreSortedByUTF8Bytes() {
  let value: JSONValue = ["é": 1, "b": 2, "B": 3, "a": 4, "": 5, "aa": 6, "z": 7]
  #expect(canonical(value) == #"{"":5,"B":3,"a":4,"aa":6,"b":2,"z":7,"é":1}"#)
}

@Test func scalarsHaveOneSpelling() {
  #expect(canonical(.null) == "null")
  #expect(canonical(true) == "true")
  #expect(canonical(false) == "false")
  #expect(canonical(.int(0)) == "0")
  #expect(canonical(.int(-5)) == "-5")
  #expect(canonical(.int(9)) == "9")
  #expect(canonical(.int(10)) == "10")
  #expect(canonical(.int(-10)) == "-10")
  #expect(canonical(.uint(10_000_000_000_000_000_000)) == "10000000000000000000")
  #expect(canonical(.int(.min)) == "-9223372036854775808")
  #expect(canonical(.int(.max)) == "9223372036854775807")
  #expect(canonical(.uint(.max)) == "18446744073709551615")
}

@Test func doublesHaveOneSpelling() {
  let cases: [(Double, String)] = [
    (5, "5.0"),
    (-5, "-5.0"),
    (0, "0.0"),
    (-0.0, "0.0"),
    (0.1, "0.1"),
    (-1.5, "-1.5"),
    (123.456, "123.456"),
    (12345678.9, "12345678.9"),
    (0.30000000000000004, "0.30000000000000004"),
    (1e-6, "0.000001"),
    (1.5e-6, "0.0000015"),
    (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"),
    (0x1p53, "9007199254740992.0"),
    (1e16, "10000000000000000.0"),
    (1e20, "100000000000000000000.0"),
    (1.5e20, "150000000000000000000.0"),
    (1e21, "1e+21"),
    (1.2345e25, "1.2345e+25"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (Double.leastNonzeroMagnitude, "5e-324"),
    (2.2250738585072014e-308, "2.2250738585072014e-308"),
  ]
  for (value, text) in cases {
    #expect(canonical(.double(value)) == text, "\(value)")
  }
}

@Test func stringsEscapeOnlyQuoteBackslashAndControlCharacters() {
  let value = JSONValue.string("q\"b\\s/\u{8}\u{c}\n\r\t\u{0}\u{1}\u{1f} \u{7f}é😀\u{2028}")
  #expect(canonical(value) == #""q\"b\\s/\b\f\n\r\t\u0000\u0001\u001f "# + "\u{7f}é😀\u{2028}\"")
}

@Test func canonicalTextIsCompact() throws {
  let parsed = try JSONValue(parsing: #" { "b" : [ 1 , 2.50 , "\u0041" , 1E2 ] , "a" : null } "#)
  #expect(canonical(parsed) == #"{"a":null,"b":[1,2.5,"A",100.0]}"#)
}

@Test func fiveAndFivePointZeroStayApart() throws {
  #expect(JSONValue.int(5) != JSONValue.double(5))
  #expect(canonical(try JSONValue(parsing: "5")) == "5")
  #expect(canonical(try JSONValue(parsing: "5.0")) == "5.0")
  #expect(canonical(try JSONValue(parsing: "5e0")) == "5.0")
  #expect(canonical(try JSONValue(parsing: "-0")) == "0")
}

@Test func negativeZeroEqualsZeroAndSerializesTheSame() {
  #expect(JSONValue.double(-0.0) == JSONValue.double(0))
  #expect(JSONValue.double(-0.0).canonicalBytes() == JSONValue.double(0).canonicalBytes())
  #expect(JSONValue.double(-0.0).hashValue == JSONValue.double(0).hashValue)
}

@Test func stringsCompareByBytesNotCanonicalEquivalence() {
  let precomposed = JSONValue.string("\u{E9}")
  let decomposed = JSONValue.string("e\u{301}")
  #expect(precomposed != decomposed)
  #expect(precomposed.canonicalBytes() != decomposed.canonicalBytes())
  let first: JSONValue = .object(JSONObject([(key: "\u{E9}", value: 1)]))
  let second: JSONValue = .object(JSONObject([(key: "e\u{301}", value: 1)]))
  #expect(first != second)
}

@Test func everyDoubleRoundTripsExactly() throws {
  var generator = SeededGenerator(seed: 0x5EED)
  for _ in 0..<20_000 {
    let value = RandomDocuments.double(&generator)
    let bytes = JSONValue.double(value).canonicalBytes()
    guard case .double(let back) = try JSONValue(parsing: bytes) else {
      Issue.record("\(value) did not read back as a double")
      continue
    }
    #expect(back.bitPattern == value.bitPattern || (value == 0 && back == 0), "\(value)")
  }
}

@Test func randomDocumentsRoundTrip() throws {
  var generator = SeededGenerator(seed: 42)
  for _ in 0..<2_000 {
    let value = RandomDocuments.value(&generator, depth: 4)
    let bytes = value.canonicalBytes()
    let back = try JSONValue(parsing: bytes)
    #expect(back == value)
    #expect(back.canonicalBytes() == bytes)
    #expect(back.canonicalHash() == value.canonicalHash())
  }
}

@Test func canonicalHashIsFNV1aOfTheCanonicalBytes() {
  // FNV-1a 64 reference values: of no bytes, and of "{}" and "[1]".
  #expect(JSONValue.fnv1a([]) == 0xcbf2_9ce4_8422_2325)
  #expect(JSONValue.object(JSONObject()).canonicalHash() == JSONValue.fnv1a(Array("{}".utf8)))
  #expect(JSONValue.fnv1a(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
  #expect(([1] as JSONValue).canonicalHash() != ([1.0] as JSONValue).canonicalHash())
}

@Test func deepDocumentsSerializeWithoutRecursion() throws {
  var value = JSONValue.int(1)
  for _ in 0..<512 { value = .array([value]) }
  let expected = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
  #expect(canonical(value) == expected)
  #expect(try JSONValue(parsing: expected) == value)
}
