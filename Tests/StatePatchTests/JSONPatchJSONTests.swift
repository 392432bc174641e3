import Testing

@testable import StatePatch

private func patch(_ text: String) throws -> JSONPatch {
  try JSONPatch(json: JSONValue(parsing: text))
}

@Test func everyOperationReadsFromRFC6902JSON() throws {
  let read = try patch(
    #"""
    [
      {"op": "add", "path": "/a/-", "value": [1]},
      {"op": "remove", "path": "/b~1c"},
      {"op": "replace", "path": "", "value": null},
      {"op": "move", "from": "/x", "path": "/y"},
      {"op": "copy", "from": "/~0", "path": "/z"},
      {"op": "test", "path": "/n", "value": 2.5}
    ]
    """#)
  #expect(
    read.operations == [
      .add(path: "/a/-", value: [1]),
      .remove(path: JSONPointer(tokens: ["b/c"])),
      .replace(path: .root, value: .null),
      .move(from: "/x", path: "/y"),
      .copy(from: JSONPointer(tokens: ["~"]), path: "/z"),
      .test(path: "/n", value: 2.5),
    ])
}

@Test func writesStandardJSONWithSortedMembers() {
  let written = JSONPatch([
    .add(path: "/a", value: ["k": 1]),
    .remove(path: JSONPointer(tokens: ["x/y"])),
    .move(from: "/from", path: "/to"),
    .copy(from: "/c", path: "/d"),
    .replace(path: "", value: 1),
    .test(path: "/t", value: "s"),
  ]).json.canonicalText
  #expect(
    written
      == #"[{"op":"add","path":"/a","value":{"k":1}},{"op":"remove","path":"/x~1y"},"#
      + #"{"from":"/from","op":"move","path":"/to"},{"from":"/c","op":"copy","path":"/d"},"#
      + #"{"op":"replace","path":"","value":1},{"op":"test","path":"/t","value":"s"}]"#)
}

@Test func roundTripsThroughJSON() throws {
  let original = JSONPatch([
    .add(path: "/é/~0/-", value: [1.5, "x", .null]),
    .move(from: "/a/0", path: "/b/1"),
    .test(path: "", value: ["deep": [["k": true]]]),
  ])
  #expect(try JSONPatch(json: original.json) == original)
  #expect(try JSONPatch(json: JSONValue(parsing: original.canonicalBytes())) == original)
}

@Test func unknownMembersAreIgnored() throws {
  let read = try patch(#"[{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]"#)
  #expect(try read.applied(to: ["foo": "bar"]) == ["baz": "qux", "foo": "bar"])
}

@Test func aRepeatedMemberIsRejectedByTheParser() {
  #expect(throws: JSONParseError(offset: 47, reason: .duplicateKey("op"))) {
    try JSONValue(parsing: #"[{"op": "add", "path": "/baz", "value": "qux", "op": "remove"}]"#)
  }
}

@Test func malformedOperationsNameTheirIndex() {
  let cases: [(String, JSONPatchError)] = [
    (
      #"{"op": "add"}"#,
      JSONPatchError(
        operationIndex: 0, pointer: .root, reason: .malformed("a JSON Patch must be an array"))
    ),
    (
      #"[1]"#,
      JSONPatchError(
        operationIndex: 0, pointer: .root, reason: .malformed("an operation must be an object"))
    ),
    (
      #"[{"op":"remove","path":"/a"}, {"path": "/a"}]"#,
      JSONPatchError(operationIndex: 1, pointer: .root, reason: .malformed("missing \"op\""))
    ),
    (
      #"[{"op": 1, "path": "/a"}]"#,
      JSONPatchError(
        operationIndex: 0, pointer: .root, reason: .malformed("\"op\" must be a string"))
    ),
    (
      #"[{"op": "add", "value": 1}]"#,
      JSONPatchError(operationIndex: 0, pointer: .root, reason: .malformed("missing \"path\""))
    ),
    (
      #"[{"op": "add", "path": "/a"}]"#,
      JSONPatchError(operationIndex: 0, pointer: "/a", reason: .malformed("missing \"value\""))
    ),
    (
      #"[{"op": "move", "path": "/a"}]"#,
      JSONPatchError(operationIndex: 0, pointer: .root, reason: .malformed("missing \"from\""))
    ),
    (
      #"[{"op": "copy", "path": "/a", "from": 3}]"#,
      JSONPatchError(
        operationIndex: 0, pointer: .root, reason: .malformed("\"from\" must be a string"))
    ),
    (
      #"[{"op": "jump", "path": "/a"}]"#,
      JSONPatchError(
        operationIndex: 0, pointer: "/a", reason: .malformed("unknown operation \"jump\""))
    ),
    (
      #"[{"op": "remove", "path": "a"}]"#,
      JSONPatchError(
        operationIndex: 0, pointer: .root,
        reason: .invalidPointer(JSONPointerError(text: "a", offset: 0, reason: .missingSlash)))
    ),
  ]
  for (text, expected) in cases {
    #expect(throws: expected, "\(text)") { try patch(text) }
  }
}

@Test func valueMayBeNullButMustBePresent() throws {
  #expect(
    try patch(#"[{"op": "add", "path": "/a", "value": null}]"#).operations == [
      .add(path: "/a", value: .null)
    ])
}

@Test(arguments: 0..<200 as Range<UInt64>)
func canonicalBytesAreTheCanonicalJSONOfThePatch(seed: UInt64) {
  var generator = SeededGenerator(seed: seed)
  func pointer() -> JSONPointer {
    JSONPointer(
      tokens: (0..<Int(generator.next() % 4)).map { _ in RandomDocuments.string(&generator) })
  }
  let operations: [PatchOperation] = (0..<Int(generator.next() % 5)).map { _ in
    switch generator.next() % 6 {
    case 0: .add(path: pointer(), value: RandomDocuments.value(&generator, depth: 2))
    case 1: .remove(path: pointer())
    case 2: .replace(path: pointer(), value: RandomDocuments.value(&generator, depth: 2))
    case 3: .move(from: pointer(), path: pointer())
    case 4: .copy(from: pointer(), path: pointer())
    default: .test(path: pointer(), value: RandomDocuments.value(&generator, depth: 2))
    }
  }
  let patch = JSONPatch(operations)
  #expect(patch.canonicalBytes() == patch.json.canonicalBytes(), "seed \(seed)")
}
