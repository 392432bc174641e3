import StatePatch
import Testing

private func sample() -> TestState {
  var generator = StateGenerator(seed: 42)
  var state = generator.state()
  state.items = (0..<6).map { Item(id: $0, title: "t\($0)", stars: $0, tags: ["tag\($0)"]) }
  state.profiles = [
    "ann": Profile(name: "Ann", nickname: nil, scores: ["x": 1], status: .idle, ratio: 0.5)
  ]
  return state
}

/// Applies `patch` to a replica of `sample()` and checks it against a full decode of the
/// patched document.
private func checkAgainstFullDecode(
  _ operations: [PatchOperation], sourceLocation: SourceLocation = #_sourceLocation
) throws -> TestState {
  var replica = try StateReplica(sample())
  let patch = JSONPatch(operations)
  try replica.apply(patch)
  var encoder = StateEncoder()
  var document = try encoder.encode(sample())
  try document.apply(patch)
  var decoder = StateDecoder()
  let expected = try decoder.decode(TestState.self, from: document)
  #expect(replica.state == expected, sourceLocation: sourceLocation)
  #expect(replica.document == document, sourceLocation: sourceLocation)
  return replica.state
}

@Test func aWholeElementReplacedIsDecodedFromThePatch() throws {
  let state = try checkAgainstFullDecode([
    .replace(path: "/items/1", value: ["id": 9, "title": "new", "stars": 0, "tags": ["n"]])
  ])
  #expect(state.items[1] == Item(id: 9, title: "new", stars: 0, tags: ["n"]))
}

@Test func movedAndCopiedElementsLandWhereThePatchPutsThem() throws {
  let state = try checkAgainstFullDecode([
    .move(from: "/items/0", path: "/items/3"), .copy(from: "/items/1", path: "/items/-"),
    .replace(path: "/items/2/stars", value: 40),
  ])
  #expect(state.items.map(\.id) == [1, 2, 3, 0, 4, 5, 2])
  #expect(state.items[2].stars == 40)
}

@Test func insertionsAndRemovalsShiftTheReusedElements() throws {
  let state = try checkAgainstFullDecode([
    .add(path: "/items/0", value: ["id": 10, "title": "a", "stars": 1, "tags": []]),
    .remove(path: "/items/3"), .replace(path: "/items/4/tags/0", value: "changed"),
    .add(path: "/items/-", value: ["id": 11, "title": "b", "stars": 2, "tags": []]),
  ])
  #expect(state.items.map(\.id) == [10, 0, 1, 3, 4, 5, 11])
  #expect(state.items[4].tags == ["changed"])
}

@Test func dictionaryMembersAndOptionalsFollowThePatch() throws {
  let state = try checkAgainstFullDecode([
    .add(
      path: "/profiles/bob",
      value: [
        "name": "Bob", "scores": [:], "status": ["idle": [:]],
        "ratio": 1,
      ]),
    .add(path: "/profiles/ann/nickname", value: "A"),
    .replace(path: "/profiles/ann/status", value: ["busy": ["since": 3]]),
    .remove(path: "/profiles/ann/scores/x"),
  ])
  #expect(state.profiles["bob"]?.name == "Bob")
  #expect(state.profiles["ann"]?.nickname == "A")
  #expect(state.profiles["ann"]?.status == .busy(since: 3))
  #expect(state.profiles["ann"]?.scores == [:])
}

@Test func aTestOperationChangesNothing() throws {
  let state = try checkAgainstFullDecode([.test(path: "/items/0/id", value: 0)])
  #expect(state == sample())
}

@Test func replacingTheRootDecodesTheWholeDocument() throws {
  var other = sample()
  other.title = "other"
  other.items.removeAll()
  var encoder = StateEncoder()
  let state = try checkAgainstFullDecode([.replace(path: .root, value: try encoder.encode(other))])
  #expect(state == other)
}

@Test func aPatchThatDoesNotApplyLeavesTheReplicaAsItWas() throws {
  var replica = try StateReplica(sample())
  let before = replica.document
  #expect(throws: StateReplicaError.self) {
    try replica.apply(
      JSONPatch([.replace(path: "/version", value: 1), .remove(path: "/missing")]))
  }
  #expect(replica.state == sample())
  #expect(replica.document == before)
}

@Test func aPatchThatBreaksTheTypeLeavesTheReplicaAsItWas() throws {
  var replica = try StateReplica(sample())
  let before = replica.document
  let error = #expect(throws: StateReplicaError.self) {
    try replica.apply(JSONPatch([.replace(path: "/items/2/stars", value: "many")]))
  }
  guard case .decodingFailed(let cause)? = error else {
    Issue.record("expected a decoding failure, got \(String(describing: error))")
    return
  }
  #expect(cause.path == "/items/2/stars")
  #expect(replica.state == sample())
  #expect(replica.document == before)
}

@Test func aReplicaStartsFromASnapshotDocument() throws {
  var encoder = StateEncoder()
  let replica = try StateReplica<TestState>(document: try encoder.encode(sample()))
  #expect(replica.state == sample())
}

@Test func aOneFieldUpdateReusesTheUntouchedSubtrees() throws {
  var replica = try StateReplica(sample())
  let before = replica.counters
  try replica.apply(JSONPatch([.replace(path: "/items/4/stars", value: 7)]))
  let decoded = replica.counters.nodesDecoded - before.nodesDecoded
  let reused = replica.counters.subtreesReused - before.subtreesReused
  #expect(decoded <= 12, "\(replica.counters)")
  #expect(reused >= 8, "\(replica.counters)")
  #expect(replica.state.items[4].stars == 7)
}

@Test func aPatchFailingAfterStructuralEditsRestoresTheDocument() throws {
  var replica = try StateReplica(sample())
  let before = replica.document
  let error = #expect(throws: StateReplicaError.self) {
    try replica.apply(
      JSONPatch([
        .add(path: "/items/-", value: ["id": 7, "title": "x", "stars": 0, "tags": []]),
        .move(from: "/items/0", path: "/items/3"), .copy(from: "/title", path: "/extra"),
        .add(path: "/title", value: "new"), .remove(path: "/items/1"),
        .replace(path: "/version", value: 0), .test(path: "/version", value: 1),
      ]))
  }
  guard case .patchFailed(let cause)? = error else {
    Issue.record("expected a patch failure, got \(String(describing: error))")
    return
  }
  #expect(cause.operationIndex == 6)
  #expect(replica.document == before)
  #expect(replica.state == sample())
}

/// The address of an array's element storage, kept as a number so it holds no reference.
private func storageAddress(of items: [Item]) -> UInt {
  items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
}

@Test func anUpdateChangesAnArrayNothingElseHoldsInPlace() throws {
  var generator = StateGenerator(seed: 3)
  var state = generator.state()
  state.items = (0..<100).map { generator.item(id: $0) }
  var replica = try StateReplica(state)
  state = TestState.empty
  try replica.apply(JSONPatch([.replace(path: "/items/5/stars", value: 50)]))
  let address = storageAddress(of: replica.state.items)
  try replica.apply(JSONPatch([.replace(path: "/items/6/stars", value: 60)]))
  #expect(storageAddress(of: replica.state.items) == address)
  #expect(replica.state.items[5].stars == 50)
  #expect(replica.state.items[6].stars == 60)
}

@Test func anUpdateLeavesAStateHeldOutsideUnchanged() throws {
  var replica = try StateReplica(sample())
  let held = replica.state
  try replica.apply(JSONPatch([.replace(path: "/items/1/stars", value: 99)]))
  #expect(held == sample())
  #expect(replica.state.items[1].stars == 99)
}

extension TestState {
  /// A state with nothing in it.
  static var empty: TestState {
    TestState(
      title: "", version: 0, items: [], profiles: [:], selected: nil, statuses: [],
      nested: Wrapper(value: [:], history: []), optionals: [], flags: [],
      loose: Loose(count: 0, values: [], label: nil))
  }
}

private indirect enum Chain: Codable, Equatable {
  case end
  case link(Chain)
}

private struct DeepState: Codable, Equatable {
  var x: Int
  var chain: Chain
}

@Test func aFailedPatchIsUndoneOnADocumentDeeperThanTheParserTakes() throws {
  // 300 links encode about 600 levels deep, past the parser's 512.
  let chain = (0..<300).reduce(Chain.end) { chain, _ in .link(chain) }
  let state = DeepState(x: 1, chain: chain)
  var replica = try StateReplica(state)
  let before = replica.document
  #expect(throws: StateReplicaError.self) {
    try replica.apply(
      JSONPatch([.replace(path: "/chain", value: ["end": [:]]), .test(path: "/x", value: 2)]))
  }
  #expect(replica.document == before)
  #expect(replica.state == state)
}

/// Encodes its member as a `Written` but decodes it as a `Read` of the same shape, so the
/// patched decode meets an old member that is not of the type it decodes.
private struct MismatchedMember: Codable, Equatable {
  struct Written: Encodable {
    var a: Int
    var b: String
  }
  struct Read: Codable, Equatable {
    var a: Int
    var b: String
  }
  enum CodingKeys: String, CodingKey { case member }

  var member: Read

  init(member: Read) { self.member = member }

  init(from decoder: any Decoder) throws {
    member = try decoder.container(keyedBy: CodingKeys.self).decode(Read.self, forKey: .member)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Written(a: member.a, b: member.b), forKey: .member)
  }
}

@Test func aMemberEncodedAsAnotherTypeIsDecodedFromTheDocument() throws {
  var replica = try StateReplica(MismatchedMember(member: .init(a: 1, b: "x")))
  try replica.apply(JSONPatch([.replace(path: "/member/a", value: 2)]))
  #expect(replica.state == MismatchedMember(member: .init(a: 2, b: "x")))
  #expect(replica.document == ["member": ["a": 2, "b": "x"]])
}
