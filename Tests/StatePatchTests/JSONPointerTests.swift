import Testing

@testable import StatePatch

/// RFC 6901 section 5's kind of document: keys that need escaping or look unusual.
private let document: JSONValue = [
  "list": ["first", "second"],
  "": 0,
  "x/y": 1,
  "p%q": 2,
  "r^s": 3,
  "t|u": 4,
  "v\\w": 5,
  "q\"r": 6,
  " ": 7,
  "y~z": 8,
]

@Test func emptyPointerIsTheWholeDocument() throws {
  let pointer = try JSONPointer(parsing: "")
  #expect(pointer.isRoot)
  #expect(document[pointer: pointer] == document)
}

@Test func pointersResolveAsRFC6901Describes() throws {
  let cases: [(String, JSONValue)] = [
    ("/list", ["first", "second"]),
    ("/list/0", "first"),
    ("/list/1", "second"),
    ("/", 0),
    ("/x~1y", 1),
    ("/p%q", 2),
    ("/r^s", 3),
    ("/t|u", 4),
    ("/v\\w", 5),
    ("/q\"r", 6),
    ("/ ", 7),
    ("/y~0z", 8),
  ]
  for (text, expected) in cases {
    let pointer = try JSONPointer(parsing: text)
    #expect(document[pointer: pointer] == expected, "\(text)")
  }
}

@Test func tildeEscapesDecodeLeftToRight() throws {
  #expect(try JSONPointer(parsing: "/~01").tokens == ["~1"])
  #expect(try JSONPointer(parsing: "/~10").tokens == ["/0"])
  #expect(try JSONPointer(parsing: "/~0~1").tokens == ["~/"])
}

@Test func formattingEscapesTildeAndSlash() {
  let pointer = JSONPointer(tokens: ["a/b", "~1", "", "plain"])
  #expect(pointer.description == "/a~1b/~01//plain")
}

@Test func formattingRoundTripsThroughParsing() throws {
  let tokens = ["", "~", "/", "~/~0", "é", "0", "-"]
  let pointer = JSONPointer(tokens: tokens)
  #expect(try JSONPointer(parsing: pointer.description) == pointer)
}

@Test func emptyTokensAreKept() throws {
  #expect(try JSONPointer(parsing: "/").tokens == [""])
  #expect(try JSONPointer(parsing: "//").tokens == ["", ""])
  #expect(try JSONPointer(parsing: "/a/").tokens == ["a", ""])
}

@Test func pointerWithoutLeadingSlashIsRejected() {
  #expect(throws: JSONPointerError(text: "a/b", offset: 0, reason: .missingSlash)) {
    try JSONPointer(parsing: "a/b")
  }
}

@Test func badTildeEscapesAreRejectedWithOffset() {
  #expect(throws: JSONPointerError(text: "/a~2", offset: 2, reason: .badEscape)) {
    try JSONPointer(parsing: "/a~2")
  }
  #expect(throws: JSONPointerError(text: "/a~", offset: 2, reason: .badEscape)) {
    try JSONPointer(parsing: "/a~")
  }
}

@Test func arrayIndexTokens() {
  #expect(JSONPointer.arrayIndex("0") == .index(0))
  #expect(JSONPointer.arrayIndex("12") == .index(12))
  #expect(JSONPointer.arrayIndex("-") == .end)
  #expect(JSONPointer.arrayIndex("01") == nil)
  #expect(JSONPointer.arrayIndex("") == nil)
  #expect(JSONPointer.arrayIndex("+1") == nil)
  #expect(JSONPointer.arrayIndex("-1") == nil)
  #expect(JSONPointer.arrayIndex("1a") == nil)
  #expect(JSONPointer.arrayIndex("99999999999999999999999") == nil)
}

@Test func dashAndBadIndicesResolveToNothing() {
  #expect(document[pointer: "/list/-"] == nil)
  #expect(document[pointer: "/list/2"] == nil)
  #expect(document[pointer: "/list/01"] == nil)
  #expect(document[pointer: "/list/0/deeper"] == nil)
  #expect(document[pointer: "/missing"] == nil)
}

@Test func tokensCompareByBytes() {
  // "é" precomposed (U+00E9) and decomposed (e + U+0301) are equal Swift strings.
  let precomposed = JSONPointer(tokens: ["\u{E9}"])
  let decomposed = JSONPointer(tokens: ["e\u{301}"])
  #expect(precomposed != decomposed)
  let object: JSONValue = .object(JSONObject([(key: "\u{E9}", value: 1)]))
  #expect(object[pointer: precomposed] == 1)
  #expect(object[pointer: decomposed] == nil)
}

@Test func prefixesAndParents() {
  let pointer: JSONPointer = "/a/b/c"
  #expect(pointer.parent == "/a/b")
  #expect(JSONPointer.root.parent == nil)
  #expect(JSONPointer("/a").isPrefix(of: pointer))
  #expect(pointer.isPrefix(of: pointer))
  #expect(!JSONPointer("/a/b/c/d").isPrefix(of: pointer))
  #expect(!JSONPointer("/a/bb").isPrefix(of: pointer))
  #expect(JSONPointer.root.appending("x").appending(index: 3) == "/x/3")
}
