import StatePatch
import Testing

/// The seeds the property tests run; each is printed with any failure so it can be replayed.
private let seeds: [UInt64] = Array(1...400)

/// Checks, for one pair of states, every promise of a diff: sent as RFC 6902 bytes and read back,
/// it applies to the canonical JSON of `old` and gives exactly the canonical bytes of `new`, and
/// a replica patched with it holds `new`.
private func checkRoundTrip(
  _ old: TestState, _ new: TestState, seed: UInt64,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var encoder = StateEncoder()
  var differ = StateDiffer()
  let sent = try differ.patch(from: old, to: new)
  let patch = try JSONPatch(json: try JSONParser().parse(sent.canonicalBytes()))
  #expect(patch == sent, "seed \(seed)", sourceLocation: sourceLocation)
  var document = try JSONParser().parse(try encoder.encode(old).canonicalBytes())
  try document.apply(patch)
  let expected = try encoder.encode(new)
  #expect(
    document.canonicalBytes() == expected.canonicalBytes(), "seed \(seed): patch \(patch)",
    sourceLocation: sourceLocation)

  var replica = try StateReplica(old)
  try replica.apply(patch)
  #expect(replica.state == new, "seed \(seed): patch \(patch)", sourceLocation: sourceLocation)
  #expect(replica.document == expected, "seed \(seed)", sourceLocation: sourceLocation)
  #expect(
    try encoder.encode(replica.state) == expected, "seed \(seed)", sourceLocation: sourceLocation)
}

@Test(arguments: seeds)
func aDiffOfAMutationTurnsTheOldDocumentIntoTheNewOne(seed: UInt64) throws {
  var generator = StateGenerator(seed: seed)
  let old = generator.state()
  let new = generator.mutated(old)
  try checkRoundTrip(old, new, seed: seed)
}

@Test(arguments: seeds.prefix(100))
func aDiffBetweenUnrelatedStatesTurnsOneIntoTheOther(seed: UInt64) throws {
  var generator = StateGenerator(seed: seed)
  let old = generator.state()
  let new = generator.state()
  try checkRoundTrip(old, new, seed: seed)
}

@Test(arguments: seeds.prefix(100))
func aChainOfPatchesKeepsAReplicaInStep(seed: UInt64) throws {
  var generator = StateGenerator(seed: seed)
  var state = generator.state()
  var replica = try StateReplica(state)
  var differ = StateDiffer()
  for step in 0..<20 {
    let next = generator.mutated(state)
    try replica.apply(try differ.patch(from: state, to: next))
    #expect(replica.state == next, "seed \(seed), step \(step)")
    state = next
  }
  var encoder = StateEncoder()
  #expect(replica.document == (try encoder.encode(state)), "seed \(seed)")
}

@Test(arguments: seeds.prefix(50))
func aDiffOfAStateWithItselfIsEmpty(seed: UInt64) throws {
  var generator = StateGenerator(seed: seed)
  let state = generator.state()
  var differ = StateDiffer()
  #expect(try differ.patch(from: state, to: state).operations.isEmpty, "seed \(seed)")
}
