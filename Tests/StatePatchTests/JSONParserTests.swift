import Testing

@testable import StatePatch

/// Parses `text` (its UTF-8 bytes).
private func parse(
  _ text: String, maximumDepth: Int = JSONParser.defaultMaximumDepth
) throws
  -> JSONValue
{
  try JSONValue(parsing: text, maximumDepth: maximumDepth)
}

/// The error that parsing `bytes` throws, or nil.
private func failure(
  _ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth
)
  -> JSONParseError?
{
  do {
    _ = try JSONValue(parsing: bytes, maximumDepth: maximumDepth)
    return nil
  } catch {
    return error
  }
}

private func failure(_ text: String) -> JSONParseError? {
  failure(Array(text.utf8))
}

// MARK: Values

@Test func literals() throws {
  #expect(try parse("null") == .null)
  #expect(try parse("true") == .bool(true))
  #expect(try parse(" \t\r\nfalse \n") == .bool(false))
}

@Test func integersKeepTheirKind() throws {
  #expect(try parse("0") == .int(0))
  #expect(try parse("-0") == .int(0))
  #expect(try parse("42") == .int(42))
  #expect(try parse("-42") == .int(-42))
  #expect(try parse("9223372036854775807") == .int(.max))
  #expect(try parse("-9223372036854775808") == .int(.min))
  #expect(try parse("9223372036854775808") == .uint(9_223_372_036_854_775_808))
  #expect(try parse("18446744073709551615") == .uint(.max))
}

@Test func integersBeyond64BitsAreRejected() {
  #expect(failure("18446744073709551616") == JSONParseError(offset: 0, reason: .numberOutOfRange))
  #expect(failure("-9223372036854775809") == JSONParseError(offset: 0, reason: .numberOutOfRange))
  #expect(
    failure("[1, 100000000000000000000000]") == JSONParseError(offset: 4, reason: .numberOutOfRange)
  )
}

@Test func fractionOrExponentMakesADouble() throws {
  #expect(try parse("5") == .int(5))
  #expect(try parse("5.0") == .double(5))
  #expect(try parse("5e0") == .double(5))
  #expect(try parse("5E+0") == .double(5))
  #expect(try parse("-0.0") == .double(-0.0))
  #expect(try parse("0.5") == .double(0.5))
  #expect(try parse("-12.5e-1") == .double(-1.25))
  #expect(try parse("1e22") == .double(1e22))
}

@Test func doublesRoundToNearest() throws {
  let cases = [
    "0.1", "0.30000000000000004", "2.2250738585072014e-308", "4.9406564584124654e-324",
    "1.7976931348623157e308", "123456789012345678901234567890e-10", "0.000000000000000000001",
    "9007199254740993.0", "3.141592653589793238462643383279", "1e-7", "7.2057594037927933e16",
  ]
  for text in cases {
    #expect(try parse(text) == .double(Double(text)!), "\(text)")
  }
}

@Test func tinyDoublesBecomeZeroAndHugeOnesAreRejected() throws {
  #expect(try parse("1e-400") == .double(0))
  #expect(try parse("-1e-400") == .double(0))
  #expect(failure("1e309") == JSONParseError(offset: 0, reason: .numberOutOfRange))
  #expect(failure("[-1.8e308]") == JSONParseError(offset: 1, reason: .numberOutOfRange))
  #expect(failure("1e99999999999") == JSONParseError(offset: 0, reason: .numberOutOfRange))
}

@Test func malformedNumbers() {
  #expect(failure("01") == JSONParseError(offset: 0, reason: .leadingZero))
  #expect(failure("-01") == JSONParseError(offset: 0, reason: .leadingZero))
  #expect(failure("[00.5]") == JSONParseError(offset: 1, reason: .leadingZero))
  #expect(failure("1.") == JSONParseError(offset: 2, reason: .unexpectedEnd))
  #expect(failure("1.e5") == JSONParseError(offset: 2, reason: .invalidNumber))
  #expect(failure("1e") == JSONParseError(offset: 2, reason: .unexpectedEnd))
  #expect(failure("1e+") == JSONParseError(offset: 3, reason: .unexpectedEnd))
  #expect(failure("1ex") == JSONParseError(offset: 2, reason: .invalidNumber))
  #expect(failure("-") == JSONParseError(offset: 1, reason: .unexpectedEnd))
  #expect(failure("-a") == JSONParseError(offset: 1, reason: .invalidNumber))
  #expect(failure(".5") == JSONParseError(offset: 0, reason: .unexpectedByte(UInt8(ascii: "."))))
  #expect(failure("+1") == JSONParseError(offset: 0, reason: .unexpectedByte(UInt8(ascii: "+"))))
  #expect(failure("NaN") == JSONParseError(offset: 0, reason: .unexpectedByte(UInt8(ascii: "N"))))
  #expect(
    failure("Infinity") == JSONParseError(offset: 0, reason: .unexpectedByte(UInt8(ascii: "I"))))
  #expect(failure("0x10") == JSONParseError(offset: 1, reason: .trailingData))
}

@Test func stringEscapes() throws {
  #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti"))
  #expect(try parse(#""\u0041\u00e9\u00E9\u20AC\u0000""#) == .string("Aéé€\u{0}"))
  #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
}

@Test func loneSurrogateEscapesAreRejected() {
  #expect(failure(#""ab\ud83d""#) == JSONParseError(offset: 3, reason: .loneSurrogate))
  #expect(failure(#""\ud83dx""#) == JSONParseError(offset: 1, reason: .loneSurrogate))
  #expect(failure(#""\ud83d\u0041""#) == JSONParseError(offset: 1, reason: .loneSurrogate))
  #expect(failure(#""\ud83d\ud83d""#) == JSONParseError(offset: 1, reason: .loneSurrogate))
  #expect(failure(#""\ude00""#) == JSONParseError(offset: 1, reason: .loneSurrogate))
}

@Test func invalidEscapesAreRejected() {
  #expect(failure(#""\x""#) == JSONParseError(offset: 1, reason: .invalidEscape))
  #expect(failure(#""\u12G4""#) == JSONParseError(offset: 5, reason: .invalidEscape))
  #expect(failure(#""\'""#) == JSONParseError(offset: 1, reason: .invalidEscape))
  #expect(failure(#""\u12"#) == JSONParseError(offset: 5, reason: .unexpectedEnd))
}

@Test func controlCharactersInStringsAreRejected() throws {
  #expect(failure("\"a\nb\"") == JSONParseError(offset: 2, reason: .controlCharacter))
  #expect(failure("\"\t\"") == JSONParseError(offset: 1, reason: .controlCharacter))
  #expect(failure([0x22, 0x00, 0x22]) == JSONParseError(offset: 1, reason: .controlCharacter))
  #expect(try parse("\"\u{7f}\"") == .string("\u{7f}"))
}

@Test func wellFormedUTF8IsAccepted() throws {
  #expect(try parse("\"é€😀\u{10FFFF}\"") == .string("é€😀\u{10FFFF}"))
  #expect(try JSONValue(parsing: [0x22, 0xEF, 0xBF, 0xBF, 0x22]) == .string("\u{FFFF}"))
}

@Test func malformedUTF8IsRejectedAtItsFirstByte() {
  let cases: [[UInt8]] = [
    [0x22, 0x61, 0x80, 0x22],  // lone continuation byte
    [0x22, 0x61, 0xC0, 0x80, 0x22],  // overlong NUL
    [0x22, 0x61, 0xC1, 0xBF, 0x22],  // overlong
    [0x22, 0x61, 0xE0, 0x80, 0x80, 0x22],  // overlong three-byte
    [0x22, 0x61, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
    [0x22, 0x61, 0xF0, 0x80, 0x80, 0x80, 0x22],  // overlong four-byte
    [0x22, 0x61, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
    [0x22, 0x61, 0xF5, 0x80, 0x80, 0x80, 0x22],  // no such lead byte
    [0x22, 0x61, 0xFF, 0x22],
    [0x22, 0x61, 0xE2, 0x82, 0x22],  // truncated before the quote
    [0x22, 0x61, 0xC3, 0x41, 0x22],  // lead byte then ASCII
  ]
  for bytes in cases {
    #expect(failure(bytes) == JSONParseError(offset: 2, reason: .invalidUTF8), "\(bytes)")
  }
  #expect(failure([0x22, 0x61, 0xE2, 0x82]) == JSONParseError(offset: 4, reason: .unexpectedEnd))
}

@Test func bytesOutsideStringsMustBeJSON() {
  #expect(
    failure([0xEF, 0xBB, 0xBF, 0x31]) == JSONParseError(offset: 0, reason: .unexpectedByte(0xEF)))
  #expect(failure("\u{0C}1") == JSONParseError(offset: 0, reason: .unexpectedByte(0x0C)))
  #expect(failure("[1]/*c*/") == JSONParseError(offset: 3, reason: .trailingData))
  #expect(failure("'a'") == JSONParseError(offset: 0, reason: .unexpectedByte(UInt8(ascii: "'"))))
}

// MARK: Structure

@Test func arraysAndObjects() throws {
  #expect(try parse("[]") == .array([]))
  #expect(try parse("{}") == .object(JSONObject()))
  #expect(try parse(#" [ 1 , "a" , [ ] , { } ] "#) == [1, "a", [], [:]])
  #expect(try parse(#"{"a":{"b":[true,null]}}"#) == ["a": ["b": [true, .null]]])
}

@Test func objectMembersAreSortedByUTF8Bytes() throws {
  let value = try parse(#"{"é": 1, "b": 2, "B": 3, "a": 4, "": 5, "aa": 6}"#)
  guard case .object(let object) = value else { Issue.record("not an object"); return }
  #expect(object.members.map(\.key) == ["", "B", "a", "aa", "b", "é"])
}

@Test func duplicateKeysAreRejected() {
  #expect(failure(#"{"a":1,"a":2}"#) == JSONParseError(offset: 7, reason: .duplicateKey("a")))
  #expect(
    failure(#"{"b":1,"a":2,"b":3}"#) == JSONParseError(offset: 13, reason: .duplicateKey("b")))
  #expect(failure(#"{"a":1,"\u0061":2}"#) == JSONParseError(offset: 7, reason: .duplicateKey("a")))
}

@Test func canonicallyEquivalentKeysWithDifferentBytesAreDistinct() throws {
  let value = try parse(#"{"\u00e9": 1, "e\u0301": 2}"#)
  #expect(value[pointer: JSONPointer(tokens: ["\u{E9}"])] == 1)
  #expect(value[pointer: JSONPointer(tokens: ["e\u{301}"])] == 2)
}

@Test func trailingCommasAreRejected() {
  #expect(failure("[1,]") == JSONParseError(offset: 2, reason: .trailingComma))
  #expect(failure(#"{"a":1 , }"#) == JSONParseError(offset: 7, reason: .trailingComma))
  #expect(failure("[,1]") == JSONParseError(offset: 1, reason: .unexpectedByte(UInt8(ascii: ","))))
  #expect(
    failure("[1,,2]") == JSONParseError(offset: 3, reason: .unexpectedByte(UInt8(ascii: ","))))
}

@Test func structuralErrors() {
  #expect(failure("") == JSONParseError(offset: 0, reason: .unexpectedEnd))
  #expect(failure("  ") == JSONParseError(offset: 2, reason: .unexpectedEnd))
  #expect(failure("[") == JSONParseError(offset: 1, reason: .unexpectedEnd))
  #expect(failure("[1") == JSONParseError(offset: 2, reason: .unexpectedEnd))
  #expect(failure("[1 2]") == JSONParseError(offset: 3, reason: .unexpectedByte(UInt8(ascii: "2"))))
  #expect(failure("[1}") == JSONParseError(offset: 2, reason: .unexpectedByte(UInt8(ascii: "}"))))
  #expect(
    failure(#"{"a" 1}"#) == JSONParseError(offset: 5, reason: .unexpectedByte(UInt8(ascii: "1"))))
  #expect(
    failure(#"{1:2}"#) == JSONParseError(offset: 1, reason: .unexpectedByte(UInt8(ascii: "1"))))
  #expect(
    failure(#"{"a":}"#) == JSONParseError(offset: 5, reason: .unexpectedByte(UInt8(ascii: "}"))))
  #expect(failure(#""abc"#) == JSONParseError(offset: 4, reason: .unexpectedEnd))
  #expect(failure("tru") == JSONParseError(offset: 3, reason: .unexpectedEnd))
  #expect(failure("nul") == JSONParseError(offset: 3, reason: .unexpectedEnd))
  #expect(failure("trUe") == JSONParseError(offset: 2, reason: .unexpectedByte(UInt8(ascii: "U"))))
  #expect(failure("[1] [2]") == JSONParseError(offset: 4, reason: .trailingData))
}

// MARK: Limits

@Test func nestingUpToTheLimitIsAccepted() throws {
  #expect(try parse("[[[]]]", maximumDepth: 3) == [[[]]])
  #expect(try parse(#"{"a":[{}]}"#, maximumDepth: 3) == ["a": [[:]]])
  #expect(try parse("7", maximumDepth: 0) == 7)
  let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
  #expect(try parse(deepest).depth == 512)
}

@Test func nestingBeyondTheLimitIsRejectedAtTheOpeningBracket() {
  #expect(
    failure(Array("[[[[]]]]".utf8), maximumDepth: 3)
      == JSONParseError(offset: 3, reason: .tooDeep(limit: 3)))
  #expect(
    failure(Array("[]".utf8), maximumDepth: 0)
      == JSONParseError(offset: 0, reason: .tooDeep(limit: 0)))
  let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
  #expect(failure(tooDeep) == JSONParseError(offset: 512, reason: .tooDeep(limit: 512)))
}

@Test func hostileNestingNeitherRecursesNorCrashes() {
  let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
  #expect(failure(bytes) == JSONParseError(offset: 512, reason: .tooDeep(limit: 512)))
  let objects = String(repeating: #"{"a":"#, count: 100_000)
  #expect(failure(objects) == JSONParseError(offset: 512 * 5, reason: .tooDeep(limit: 512)))
}

@Test func anyByteCollectionParses() throws {
  let text = #"{"k": [1, 2.5, "é"]}"#
  let expected: JSONValue = ["k": [1, 2.5, "é"]]
  #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
  #expect(try JSONValue(parsing: text.utf8.lazy.map { $0 }) == expected)
  #expect(try JSONParser().parse(text) == expected)
}

@Test func errorsDescribeTheOffset() {
  #expect(
    JSONParseError(offset: 3, reason: .unexpectedByte(0x32)).description
      == "invalid JSON at byte 3: unexpected byte '2'")
  #expect(
    JSONParseError(offset: 0, reason: .unexpectedByte(0xEF)).description
      == "invalid JSON at byte 0: unexpected byte 0xef")
}
