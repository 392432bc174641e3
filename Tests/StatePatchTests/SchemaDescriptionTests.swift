import StatePatch
import Testing

private enum ProbedKind: String, Codable, CaseIterable { case book, film }

private enum ProbedPayload: Codable { case text(String), number(Int) }

private struct ProbedItem: Codable {
  var name: String
  var kind: ProbedKind
}

private struct Described: Codable {
  var count: Int
  var title: String?
  var items: [ProbedItem]
  var scores: [String: Double]
  var flags: Set<Bool>
  var bytes: [UInt8]
  var hits: Int
  var payload: ProbedPayload?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    count = try container.decode(Int.self, forKey: .count)
    title = try container.decodeIfPresent(String.self, forKey: .title)
    items = try container.decode([ProbedItem].self, forKey: .items)
    scores = try container.decode([String: Double].self, forKey: .scores)
    flags = try container.decode(Set<Bool>.self, forKey: .flags)
    bytes = try container.decode([UInt8].self, forKey: .bytes)
    hits = try container.decodeIfPresent(Int.self, forKey: .hits) ?? 7
    payload = try container.decodeIfPresent(ProbedPayload.self, forKey: .payload)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encodeIfPresent(title, forKey: .title)
    try container.encode(items, forKey: .items)
    try container.encode(scores, forKey: .scores)
    try container.encode(flags, forKey: .flags)
    try container.encode(bytes, forKey: .bytes)
    try container.encode(hits, forKey: .hits)
    try container.encodeIfPresent(payload, forKey: .payload)
  }

  private enum CodingKeys: String, CodingKey {
    case count, title, items, scores, flags, bytes, hits, payload
  }
}

private struct Empty: Codable {}

private indirect enum Tree: Codable { case leaf, node([Tree]) }

private struct Recursive: Codable {
  var name: String
  var children: [Recursive]
}

@Suite struct SchemaDescriptionTests {
  @Test func describesFieldsShapesOptionalityAndDefaults() throws {
    let description = SchemaDescription(of: Described.self)
    guard case .object(let fields) = description.shape else {
      Issue.record("not an object: \(description.shape)")
      return
    }
    #expect(fields["count"] == SchemaField(shape: .integer("Int"), required: true))
    #expect(fields["title"] == SchemaField(shape: .string, required: false))
    #expect(fields["hits"] == SchemaField(shape: .integer("Int"), required: false, defaultValue: 7))
    #expect(
      fields["items"]?.shape
        == .array(
          .object([
            "name": SchemaField(shape: .string, required: true),
            "kind": SchemaField(shape: .enumeration(["book", "film"]), required: true),
          ])))
    #expect(fields["scores"]?.shape == .dictionary(.number("Double")))
    #expect(fields["flags"]?.shape == .array(.boolean))
    #expect(fields["bytes"]?.shape == .array(.integer("UInt8")))
    // An enumeration with associated values cannot be probed; as an optional member it is
    // opaque, and the members after it are still seen.
    guard case .opaque(let text)? = fields["payload"]?.shape else {
      Issue.record("payload is \(String(describing: fields["payload"]))")
      return
    }
    #expect(text.contains("Payload"))
    #expect(description.problem != nil)
    #expect(fields["payload"]?.required == false)
  }

  @Test func synthesizedOptionalsAreOptionalWithoutDefault() {
    struct State: Codable {
      var a: Int
      var b: String?
    }
    #expect(
      SchemaDescription(of: State.self).shape
        == .object([
          "a": SchemaField(shape: .integer("Int"), required: true),
          "b": SchemaField(shape: .string, required: false),
        ]))
  }

  @Test func emptyAndRecursiveTypesTerminate() {
    // A synthesized decoder of no members opens no container: it reads any value.
    #expect(SchemaDescription(of: Empty.self).shape == .anything)
    let recursive = SchemaDescription(of: Recursive.self)
    #expect(recursive.shape.summary.hasPrefix("{children: [{children: [{"))
    #expect(recursive.problem != nil)
    let tree = SchemaDescription(of: Tree.self)
    guard case .opaque = tree.shape else {
      Issue.record("a tree enum is \(tree.shape)")
      return
    }
  }

  @Test func jsonRoundTrips() throws {
    let description = SchemaDescription(of: Described.self)
    let bytes = description.json.canonicalBytes()
    let parsed = try SchemaDescription(json: try JSONParser().parse(bytes))
    #expect(parsed == description)
  }

  @Test func malformedJSONNamesThePlace() throws {
    let json: JSONValue = [
      "type": "T", "shape": ["object": ["a": ["shape": "Integer", "required": true]]],
    ]
    #expect(throws: SchemaDescriptionError.self) { try SchemaDescription(json: json) }
    do {
      _ = try SchemaDescription(json: json)
    } catch {
      #expect(error.pointer == "/shape/object/a/shape")
    }
  }

  @Test func summaryReadsLikeSwift() {
    let shape = SchemaDescription(of: ProbedItem.self).shape
    #expect(shape.summary == #"{kind: enum["book", "film"], name: String}"#)
  }

  @Test func aPatchBetweenDocumentsGivesTheNewDocument() throws {
    let old: JSONValue = ["counter": 5, "gone": true, "nested": ["a": 1, "b": [1, 2]]]
    let new: JSONValue = ["counter": 5, "hits": 0, "nested": ["a": 2, "b": [1, 2, 3]]]
    let patch = JSONPatch(from: old, to: new)
    #expect(
      patch.operations == [
        .remove(path: "/gone"), .add(path: "/hits", value: 0),
        .replace(path: "/nested/a", value: 2), .replace(path: "/nested/b", value: [1, 2, 3]),
      ])
    var document = old
    try document.apply(patch)
    #expect(document == new)
    #expect(JSONPatch(from: new, to: new).operations.isEmpty)
  }
}
