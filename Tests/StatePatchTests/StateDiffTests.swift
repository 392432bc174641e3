import Foundation
import StatePatch
import Testing

private struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

private struct Shapes: Codable, Equatable {
  var points: [Point]
  var names: [String: Point]
  var origin: Point?
  var status: Status
}

private func diff<T: Encodable>(_ a: T, _ b: T) throws -> [PatchOperation] {
  var differ = StateDiffer()
  return try differ.patch(from: a, to: b).operations
}

private let base = Shapes(
  points: (0..<6).map { Point(x: $0, y: 0) }, names: ["a": Point(x: 1, y: 1)], origin: nil,
  status: .idle)

@Test func equalValuesGiveAnEmptyPatch() throws {
  #expect(try diff(base, base).isEmpty)
}

@Test func oneFieldOfOneElementIsOneReplace() throws {
  var new = base
  new.points[3].y = 7
  #expect(try diff(base, new) == [.replace(path: "/points/3/y", value: 7)])
}

@Test func anElementRemovedInTheMiddleIsOneRemove() throws {
  var new = base
  new.points.remove(at: 2)
  #expect(try diff(base, new) == [.remove(path: "/points/2")])
}

@Test func anElementInsertedInTheMiddleIsOneAdd() throws {
  var new = base
  new.points.insert(Point(x: 9, y: 9), at: 1)
  #expect(try diff(base, new) == [.add(path: "/points/1", value: ["x": 9, "y": 9])])
}

@Test func aRemovalAndAnAppendAreTwoOperations() throws {
  var new = base
  new.points.remove(at: 1)
  new.points.append(Point(x: 6, y: 0))
  #expect(
    try diff(base, new) == [
      .remove(path: "/points/1"), .add(path: "/points/5", value: ["x": 6, "y": 0]),
    ])
}

@Test func tailRemovalsGoFromTheEnd() throws {
  var new = base
  new.points.removeLast(2)
  #expect(try diff(base, new) == [.remove(path: "/points/5"), .remove(path: "/points/4")])
}

@Test func dictionaryMembersAreAddedRemovedAndDiffed() throws {
  var new = base
  new.names["a"]!.x = 2
  new.names["b/c"] = Point(x: 0, y: 0)
  var removed = base
  removed.names["a"] = nil
  #expect(
    try diff(base, new) == [
      .replace(path: JSONPointer(tokens: ["names", "a", "x"]), value: 2),
      .add(path: JSONPointer(tokens: ["names", "b/c"]), value: ["x": 0, "y": 0]),
    ])
  #expect(try diff(base, removed) == [.remove(path: "/names/a")])
}

@Test func anOptionalMemberGoingNilToValueAndBackIsAddAndRemove() throws {
  var new = base
  new.origin = Point(x: 1, y: 2)
  #expect(try diff(base, new) == [.add(path: "/origin", value: ["x": 1, "y": 2])])
  #expect(try diff(new, base) == [.remove(path: "/origin")])
}

@Test func optionalElementsReplaceNullAndValue() throws {
  #expect(try diff([1, nil, 3], [1, 2, 3] as [Int?]) == [.replace(path: "/1", value: 2)])
  #expect(try diff([1, 2, 3], [1, nil, 3] as [Int?]) == [.replace(path: "/1", value: .null)])
}

@Test func anEnumChangingCaseIsOneReplace() throws {
  var new = base
  new.status = .failed("disk", code: 3)
  #expect(
    try diff(base, new) == [
      .replace(path: "/status", value: ["failed": ["_0": "disk", "code": 3]])
    ])
}

@Test func anEnumPayloadChangeReplacesThePayloadField() throws {
  let old = Shapes(points: [], names: [:], origin: nil, status: .busy(since: 1))
  var new = old
  new.status = .busy(since: 2)
  #expect(try diff(old, new) == [.replace(path: "/status/busy/since", value: 2)])
}

@Test func aChangedRootScalarReplacesTheWholeDocument() throws {
  #expect(try diff(1, 2) == [.replace(path: .root, value: 2)])
}

@Test func valuesThatAreNotEquatableAreWalkedThroughTheirContainers() throws {
  let old = Loose(count: 1, values: [1, 2], label: nil)
  let new = Loose(count: 1, values: [1, 3, 4], label: "x")
  #expect(
    try diff(old, new) == [
      .add(path: "/label", value: "x"), .replace(path: "/values/1", value: 3),
      .add(path: "/values/2", value: 4),
    ])
}

@Test func aOneFieldChangeInALargeStateEncodesAndDecodesFewNodes() throws {
  var generator = StateGenerator(seed: 7)
  var old = generator.state()
  old.items = (0..<5_000).map { generator.item(id: $0) }
  var new = old
  new.items[2_345].stars += 1
  var differ = StateDiffer()
  let patch = try differ.patch(from: old, to: new)
  #expect(patch.operations.count == 1)
  #expect(differ.counters.nodesEncoded <= 40, "\(differ.counters)")
  #expect(differ.counters.nodesCompared <= 5_000 + 40, "\(differ.counters)")

  var replica = try StateReplica(old)
  let before = replica.counters
  try replica.apply(patch)
  #expect(replica.state == new)
  #expect(replica.counters.nodesDecoded - before.nodesDecoded <= 10, "\(replica.counters)")
}

@Test func optionalRootsAndNestedOptionalsDiff() throws {
  #expect(try diff(Int?.none, Int?.some(1)) == [.replace(path: .root, value: 1)])
  #expect(try diff(Int?.some(1), Int?.none) == [.replace(path: .root, value: .null)])
  #expect(try diff(Int?.none, Int?.none).isEmpty)
  #expect(try diff([Int??.some(nil)], [Int??.some(2)]) == [.replace(path: "/0", value: 2)])
}

private struct Special: Codable, Equatable {
  var blob: Data
  var when: Date
  var set: Set<Int>
  var byKey: [Point: String]
  var byNumber: [Int: String]
}

private extension Point {
  init(_ x: Int) { self.init(x: x, y: -x) }
}

extension Point: Hashable {}

@Test func specialShapesRoundTripThroughDiffAndReplica() throws {
  let old = Special(
    blob: Data([1, 2, 3]), when: Date(timeIntervalSinceReferenceDate: 12.5), set: [3, 1, 2],
    byKey: [Point(1): "one", Point(2): "two"], byNumber: [1: "a", 10: "b"])
  var new = old
  new.blob.append(4)
  new.when = Date(timeIntervalSinceReferenceDate: 13.25)
  new.set.insert(0)
  new.byKey[Point(3)] = "three"
  new.byNumber[2] = "c"
  new.byNumber[10] = nil
  var differ = StateDiffer()
  let patch = try differ.patch(from: old, to: new)
  // Members in declaration order; the Int-keyed dictionary's members in canonical key order.
  #expect(
    patch.operations == [
      .replace(path: "/blob", value: "AQIDBA=="), .replace(path: "/when", value: 13.25),
      .replace(path: "/set", value: [0, 1, 2, 3]),
      .replace(
        path: "/byKey",
        value: [["x": 1, "y": -1], "one", ["x": 2, "y": -2], "two", ["x": 3, "y": -3], "three"]),
      .remove(path: "/byNumber/10"), .add(path: "/byNumber/2", value: "c"),
    ])
  var replica = try StateReplica(old)
  try replica.apply(patch)
  #expect(replica.state == new)
  var encoder = StateEncoder()
  #expect(replica.document.canonicalBytes() == (try encoder.encode(new)).canonicalBytes())
}

private struct Tally: Codable, Equatable {
  var count: Int
  var label: String
  var done: Bool
  var points: [Point]
}

@Test func aChainDiffedWithOneDifferRecordsEachStateOnce() throws {
  let states = (0..<4).map {
    Tally(count: $0, label: "l\($0 % 2)", done: false, points: base.points)
  }
  var chain = StateDiffer()
  for step in 1..<states.count {
    var fresh = StateDiffer()
    let expected = try fresh.patch(from: states[step - 1], to: states[step])
    let before = chain.counters.nodesEncoded
    #expect(try chain.patch(from: states[step - 1], to: states[step]) == expected)
    // From the second diff on, the old state's three scalars come from the last diff's record.
    let reused = step == 1 ? 0 : 3
    #expect(chain.counters.nodesEncoded - before == fresh.counters.nodesEncoded - reused)
  }
}

@Test func aDifferDoesNotReuseTheRecordOfAnotherValue() throws {
  var differ = StateDiffer()
  var new = base
  new.points[0].x = 9
  _ = try differ.patch(from: base, to: new)
  var other = base
  other.points[5].y = 1
  var moved = other
  moved.origin = Point(x: 2, y: 2)
  #expect(
    try differ.patch(from: other, to: moved).operations == [
      .add(path: "/origin", value: ["x": 2, "y": 2])
    ])
}
