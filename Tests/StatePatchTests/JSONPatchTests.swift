import Testing

@testable import StatePatch

/// Applies `operations` to `document` and returns the result.
private func patched(_ document: JSONValue, _ operations: [PatchOperation]) throws -> JSONValue {
  try JSONPatch(operations).applied(to: document)
}

// MARK: The behaviours of RFC 6902's appendix, as our own data

@Test func addSetsANewObjectMember() throws {
  let result = try patched(["name": "kettle"], [.add(path: "/colour", value: "red")])
  #expect(result == ["colour": "red", "name": "kettle"])
}

@Test func addInsertsIntoAnArrayBeforeTheIndex() throws {
  let result = try patched(["steps": ["boil", "pour"]], [.add(path: "/steps/1", value: "steep")])
  #expect(result == ["steps": ["boil", "steep", "pour"]])
}

@Test func removeDeletesAnObjectMember() throws {
  let result = try patched(["colour": "red", "name": "kettle"], [.remove(path: "/colour")])
  #expect(result == ["name": "kettle"])
}

@Test func removeDeletesAnArrayElementAndShiftsTheRest() throws {
  let result = try patched(["steps": ["boil", "steep", "pour"]], [.remove(path: "/steps/1")])
  #expect(result == ["steps": ["boil", "pour"]])
}

@Test func replaceChangesAValue() throws {
  let result = try patched(
    ["colour": "red", "name": "kettle"], [.replace(path: "/colour", value: "blue")])
  #expect(result == ["colour": "blue", "name": "kettle"])
}

@Test func moveTakesAMemberToAnotherObject() throws {
  let document: JSONValue = ["from": ["keep": 1, "go": 2], "to": ["here": 3]]
  let result = try patched(document, [.move(from: "/from/go", path: "/to/went")])
  #expect(result == ["from": ["keep": 1], "to": ["here": 3, "went": 2]])
}

@Test func moveWithinAnArrayIndexesAfterTheRemoval() throws {
  let document: JSONValue = ["letters": ["a", "b", "c", "d"]]
  let result = try patched(document, [.move(from: "/letters/1", path: "/letters/3")])
  #expect(result == ["letters": ["a", "c", "d", "b"]])
}

@Test func testSucceedsOnEqualValues() throws {
  let document: JSONValue = ["word": "tea", "list": ["x", 2, "z"]]
  let result = try patched(
    document, [.test(path: "/word", value: "tea"), .test(path: "/list/1", value: 2)])
  #expect(result == document)
}

@Test func testFailsOnADifferentValue() {
  #expect(throws: JSONPatchError(operationIndex: 0, pointer: "/word", reason: .testFailed)) {
    try patched(["word": "tea"], [.test(path: "/word", value: "coffee")])
  }
}

@Test func addCreatesANestedObject() throws {
  let result = try patched(["a": 1], [.add(path: "/child", value: ["grandchild": [:]])])
  #expect(result == ["a": 1, "child": ["grandchild": [:]]])
}

@Test func addToAMissingParentFails() {
  #expect(
    throws: JSONPatchError(operationIndex: 0, pointer: "/no/leaf", reason: .notFound(tokenIndex: 0))
  ) {
    try patched(["a": 1], [.add(path: "/no/leaf", value: 1)])
  }
}

@Test func escapedTokensAreDecodedBeforeLookup() throws {
  let document: JSONValue = ["/": 9, "~1": 10]
  _ = try patched(document, [.test(path: "/~01", value: 10)])
  #expect(throws: JSONPatchError.self) { try patched(document, [.test(path: "/~01", value: "10")]) }
}

@Test func addWithDashAppendsAWholeArrayAsOneElement() throws {
  let result = try patched(["list": ["x"]], [.add(path: "/list/-", value: ["y", "z"])])
  #expect(result == ["list": ["x", ["y", "z"]]])
}

// MARK: More of the RFC's rules

@Test func addReplacesAnExistingMember() throws {
  #expect(try patched(["a": 1], [.add(path: "/a", value: 2)]) == ["a": 2])
}

@Test func addAtTheRootReplacesTheDocument() throws {
  #expect(try patched(["a": 1], [.add(path: "", value: [1, 2])]) == [1, 2])
}

@Test func replaceAtTheRootReplacesTheDocument() throws {
  #expect(try patched(["a": 1], [.replace(path: "", value: "x")]) == "x")
}

@Test func addAtTheArrayCountAppends() throws {
  #expect(try patched([1, 2], [.add(path: "/2", value: 3)]) == [1, 2, 3])
}

@Test func addBeyondTheArrayCountFails() {
  #expect(
    throws: JSONPatchError(
      operationIndex: 0, pointer: "/3", reason: .invalidArrayIndex(tokenIndex: 0))
  ) {
    try patched([1, 2], [.add(path: "/3", value: 3)])
  }
}

@Test func leadingZeroIndexFails() {
  #expect(
    throws: JSONPatchError(
      operationIndex: 0, pointer: "/01", reason: .invalidArrayIndex(tokenIndex: 0))
  ) {
    try patched([1, 2], [.replace(path: "/01", value: 3)])
  }
}

@Test func removeOfAMissingMemberFails() {
  #expect(
    throws: JSONPatchError(operationIndex: 0, pointer: "/b", reason: .notFound(tokenIndex: 0))
  ) {
    try patched(["a": 1], [.remove(path: "/b")])
  }
}

@Test func removeOfDashFails() {
  #expect(
    throws: JSONPatchError(
      operationIndex: 0, pointer: "/-", reason: .invalidArrayIndex(tokenIndex: 0))
  ) {
    try patched([1], [.remove(path: "/-")])
  }
}

@Test func removeOfTheRootFails() {
  #expect(throws: JSONPatchError(operationIndex: 0, pointer: "", reason: .cannotRemoveRoot)) {
    try patched([1], [.remove(path: "")])
  }
}

@Test func replaceOfAMissingMemberFails() {
  #expect(
    throws: JSONPatchError(operationIndex: 0, pointer: "/b", reason: .notFound(tokenIndex: 0))
  ) {
    try patched(["a": 1], [.replace(path: "/b", value: 1)])
  }
}

@Test func steppingIntoAScalarFails() {
  #expect(
    throws: JSONPatchError(
      operationIndex: 0, pointer: "/a/b", reason: .notAContainer(tokenIndex: 1))
  ) {
    try patched(["a": 1], [.add(path: "/a/b", value: 1)])
  }
}

@Test func copyDuplicatesAValue() throws {
  let result = try patched(["a": ["deep": [1]]], [.copy(from: "/a", path: "/b")])
  #expect(result == ["a": ["deep": [1]], "b": ["deep": [1]]])
}

@Test func copyFromAMissingValueNamesFrom() {
  #expect(
    throws: JSONPatchError(operationIndex: 0, pointer: "/x", reason: .notFound(tokenIndex: 0))
  ) {
    try patched(["a": 1], [.copy(from: "/x", path: "/b")])
  }
}

@Test func moveIntoItsOwnChildFails() {
  #expect(throws: JSONPatchError(operationIndex: 0, pointer: "/a", reason: .moveIntoDescendant)) {
    try patched(["a": ["b": 1]], [.move(from: "/a", path: "/a/b/c")])
  }
}

@Test func moveToItselfChangesNothing() throws {
  #expect(try patched(["a": 1], [.move(from: "/a", path: "/a")]) == ["a": 1])
}

@Test func testComparesNumbersByValueAcrossKinds() throws {
  _ = try patched(["n": 1], [.test(path: "/n", value: 1.0)])
  _ = try patched(["n": [2.0]], [.test(path: "/n", value: [2])])
  #expect(throws: JSONPatchError.self) { try patched(["n": 1], [.test(path: "/n", value: 1.5)]) }
}

@Test func testComparesObjectsRegardlessOfWrittenOrder() throws {
  let stored = try JSONValue(parsing: #"{"b": 1, "a": 2}"#)
  _ = try patched(["x": stored], [.test(path: "/x", value: ["a": 2, "b": 1])])
}

@Test func testOfAMissingValueFails() {
  #expect(
    throws: JSONPatchError(operationIndex: 0, pointer: "/nope", reason: .notFound(tokenIndex: 0))
  ) {
    try patched(["a": 1], [.test(path: "/nope", value: .null)])
  }
}

// MARK: Atomicity, errors, depth and cost

@Test func aFailingPatchLeavesTheDocumentUnchanged() {
  let original: JSONValue = [
    "list": [1, 2, 3], "object": ["k": "v"], "scalar": true,
  ]
  var document = original
  let patch = JSONPatch([
    .add(path: "/list/0", value: 0),
    .remove(path: "/object/k"),
    .replace(path: "/scalar", value: false),
    .move(from: "/list/3", path: "/object/moved"),
    .copy(from: "/list", path: "/copied"),
    .add(path: "/object/k", value: "new"),
    .add(path: "", value: "whole"),
    .replace(path: "", value: ["x": 1]),
    .test(path: "/missing", value: 1),
  ])
  #expect(
    throws: JSONPatchError(operationIndex: 8, pointer: "/missing", reason: .notFound(tokenIndex: 0))
  ) {
    try patch.apply(to: &document)
  }
  #expect(document == original)
}

@Test func everyPrefixOfAFailingPatchIsUndone() throws {
  let original: JSONValue = ["a": [1, 2, 3], "b": ["c": [4, 5]]]
  let steps: [PatchOperation] = [
    .move(from: "/a/0", path: "/a/2"),
    .add(path: "/b/c/-", value: 6),
    .copy(from: "/b", path: "/a/1"),
    .remove(path: "/b/c/0"),
    .move(from: "/b/c", path: "/d"),
    .replace(path: "/a/1/c/0", value: "x"),
  ]
  for count in 0...steps.count {
    var document = original
    let patch = JSONPatch(Array(steps.prefix(count)) + [.remove(path: "/nothing")])
    #expect(throws: JSONPatchError.self) { try patch.apply(to: &document) }
    #expect(document == original, "after \(count) operations")
  }
}

@Test func errorsDescribeTheOperationAndPath() {
  let error = JSONPatchError(operationIndex: 2, pointer: "/a/b", reason: .notFound(tokenIndex: 0))
  #expect(error.description == #"JSON Patch operation 2 at "/a/b": no value at "/a""#)
}

@Test func addingBeyondTheDepthLimitFails() {
  #expect(throws: JSONPatchError(operationIndex: 0, pointer: "/a", reason: .tooDeep(limit: 3))) {
    try JSONPatch([.add(path: "/a", value: [[[1]]])]).applied(to: [:], maximumDepth: 3)
  }
  #expect(throws: Never.self) {
    try JSONPatch([.add(path: "/a", value: [[1]])]).applied(to: [:], maximumDepth: 3)
  }
}

@Test func movingDeeperBeyondTheDepthLimitFails() {
  let document: JSONValue = ["a": [[1]], "b": ["c": [:]]]
  #expect(throws: JSONPatchError(operationIndex: 0, pointer: "/b/c/d", reason: .tooDeep(limit: 4)))
  {
    try JSONPatch([.move(from: "/a", path: "/b/c/d")]).applied(to: document, maximumDepth: 4)
  }
}

/// The address of the storage of the array at `key` of an object document.
private func storageAddress(of document: JSONValue, at key: String) -> UInt? {
  guard case .object(let object) = document, case .array(let array)? = object[key] else {
    return nil
  }
  return array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
}

@Test func editingALeafKeepsTheStorageOfItsContainersAndSiblings() throws {
  var document: JSONValue = [
    "edited": .array((0..<1000).map { .int($0) }),
    "sibling": .array((0..<1000).map { .int($0) }),
  ]
  let edited = storageAddress(of: document, at: "edited")
  let sibling = storageAddress(of: document, at: "sibling")
  try JSONPatch([.replace(path: "/edited/500", value: "x")]).apply(to: &document)
  #expect(document[pointer: "/edited/500"] == "x")
  #expect(storageAddress(of: document, at: "edited") == edited)
  #expect(storageAddress(of: document, at: "sibling") == sibling)
}

@Test func appliedLeavesItsInputUnchanged() throws {
  let document: JSONValue = ["list": [1, 2]]
  let result = try JSONPatch([.add(path: "/list/-", value: 3)]).applied(to: document)
  #expect(document == ["list": [1, 2]])
  #expect(result == ["list": [1, 2, 3]])
}
