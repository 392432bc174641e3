import StatePatch
import Tandem
import Testing

@testable import TandemProtocol

/// Every rule of ``SchemaCompatibility``, the ones that admit and the ones that refuse, as a
/// table of a follower's schema against a leader's.
@Suite("Schema compatibility rules")
struct SchemaCompatibilityTests {
  typealias V = SchemaVersions

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var follower: ApplicationSchema
    var leader: ApplicationSchema
    /// Text each conflict's description must contain, in order; empty for compatible.
    var conflicts: [[String]]
    var unknownTags: [String] = []
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "identical schemas", follower: V.schema(V.StateV1.self),
      leader: V.schema(V.StateV1.self), conflicts: []),
    Row(
      name: "added defaulted and optional state fields: an old follower ignores them",
      follower: V.schema(V.StateV1.self), leader: V.schema(V.StateV2.self), conflicts: []),
    Row(
      name: "added defaulted and optional state fields: a new follower reads an old leader",
      follower: V.schema(V.StateV2.self), leader: V.schema(V.StateV1.self), conflicts: []),
    Row(
      name: "a new action tag is compatible; the old leader will refuse it",
      follower: V.schema(V.StateV1.self, V.v2Actions), leader: V.schema(V.StateV1.self),
      conflicts: [], unknownTags: ["reset"]),
    Row(
      name: "an action field the leader no longer needs",
      follower: V.schema(V.StateV1.self),
      leader: V.schema(
        V.StateV1.self,
        ActionRegistry().registering(V.Increase.self, tag: "increase")
          .registering(V.SetCounterWithoutBy.self, tag: "set")),
      conflicts: []),
    Row(
      name: "a wider integer reads a narrower one, a Double reads an integer",
      follower: V.schema(V.StateWide.self), leader: V.schema(V.StateV1.self), conflicts: []),
    Row(
      name: "a Double reads an integer",
      follower: V.schema(V.StateDouble.self), leader: V.schema(V.StateV1.self), conflicts: []),
    Row(
      name: "more enumeration cases in the reader",
      follower: V.schema(V.ModalV2.self), leader: V.schema(V.ModalV1.self), conflicts: []),
    Row(
      name: "an optional reader of a required value",
      follower: V.schema(V.StateOptionalCounter.self), leader: V.schema(V.StateV1.self),
      conflicts: []),
    Row(
      name: "refused: a field's type changed",
      follower: V.schema(V.StateV3.self), leader: V.schema(V.StateV1.self),
      conflicts: [
        [
          "the state at /counter", "the type changed", "the follower reads String",
          "the leader writes Int",
        ]
      ]),
    Row(
      name: "refused: a required field added without a default",
      follower: V.schema(V.StateRequiredAdded.self), leader: V.schema(V.StateV1.self),
      conflicts: [["the state at /total", "required field without a default", "no such field"]]),
    Row(
      name: "refused: an enumeration case the follower cannot decode",
      follower: V.schema(V.ModalV1.self), leader: V.schema(V.ModalV2.self),
      conflicts: [["the state at /mode", "case \"paused\" cannot be decoded"]]),
    Row(
      name: "refused: a narrower integer",
      follower: V.schema(V.StateNarrow.self), leader: V.schema(V.StateV1.self),
      conflicts: [["/counter", "narrowed", "reads Int8", "writes Int"]]),
    Row(
      name: "refused: an integer reader of a Double",
      follower: V.schema(V.StateV1.self), leader: V.schema(V.StateDouble.self),
      conflicts: [["/counter", "the type changed", "reads Int", "writes Double"]]),
    Row(
      name: "refused: a required reader of a value that may be absent",
      follower: V.schema(V.StateV1.self), leader: V.schema(V.StateOptionalCounter.self),
      conflicts: [["/counter", "may be absent where it is required"]]),
    Row(
      name: "refused: the leader's action needs a field the follower does not send",
      follower: V.schema(V.StateV1.self),
      leader: V.schema(
        V.StateV1.self,
        ActionRegistry().registering(V.Increase.self, tag: "increase")
          .registering(V.SetCounterWithReason.self, tag: "set")),
      conflicts: [
        [
          "action \"set\" at /reason", "the leader reads String",
          "the follower writes no such field",
        ]
      ]),
    Row(
      name: "refused: another schema version",
      follower: V.schema(V.StateV1.self, version: "2"), leader: V.schema(V.StateV1.self),
      conflicts: [["the schema version", "version 2", "version 1"]]),
  ]

  @Test(arguments: rows)
  func rule(_ row: Row) {
    let verdict = SchemaCompatibility.follower(row.follower, leader: row.leader)
    #expect(verdict.conflicts.count == row.conflicts.count, "\(verdict.conflicts)")
    for (conflict, parts) in zip(verdict.conflicts, row.conflicts) {
      for part in parts {
        #expect(conflict.description.contains(part), "\(conflict) lacks \(part)")
      }
    }
    #expect(verdict.tagsUnknownToLeader == row.unknownTags)
    #expect(verdict.isCompatible == row.conflicts.isEmpty)
  }

  @Test("null where a value is needed, and opaque shapes that differ, are refused")
  func nullAndOpaque() {
    let roles = (reader: "r", writer: "w")
    #expect(
      SchemaCompatibility.conflicts(
        reader: .integer("Int"), writer: .nullable(.integer("Int")), subject: "s", roles: roles
      ).map(\.reason) == ["the value may be null where a value is needed"])
    #expect(
      SchemaCompatibility.conflicts(
        reader: .nullable(.integer("Int")), writer: .integer("Int"), subject: "s", roles: roles
      ).isEmpty)
    #expect(
      SchemaCompatibility.conflicts(
        reader: .opaque("A"), writer: .opaque("A"), subject: "s", roles: roles
      ).isEmpty)
    #expect(
      SchemaCompatibility.conflicts(
        reader: .opaque("A"), writer: .opaque("B"), subject: "s", roles: roles
      ).map(\.reason) == ["the type changed"])
    #expect(
      SchemaCompatibility.conflicts(
        reader: .array(.string), writer: .array(.integer("Int")), subject: "s", roles: roles
      ).map(\.path) == ["/*"])
  }

  @Test("the defaults of a new field are part of its schema")
  func defaultsAreVisible() {
    guard case .object(let fields) = V.schema(V.StateV2.self).state.shape else {
      Issue.record("not an object")
      return
    }
    #expect(fields["hits"] == SchemaField(shape: .integer("Int"), required: false, defaultValue: 0))
    #expect(fields["note"] == SchemaField(shape: .string, required: false))
  }

  @Test("a schema survives its frame")
  func frameRoundTrip() throws {
    let schema = V.schema(V.ModalV2.self, V.v2Actions)
    #expect(try ApplicationSchema(bytes: schema.frame) == schema)
  }
}
