import StatePatch

/// The rules that decide whether processes of two schemas can share a state (see
/// <doc:SchemaEvolution>): the reader of every value must decode every value its writer can
/// encode.
///
/// The state is written by the leader (and by the journal's older leaders) and read by the
/// followers (and by a leader starting from the journal); an action's payload is written by a
/// follower and read by the leader. The rules for one reader and one writer, applied at every
/// place of the two shapes:
///
/// - **compatible**: a member the writer has and the reader lacks (the reader ignores it); a
///   member the reader has and the writer lacks, if the reader may do without it (optional, or
///   with a default); a wider integer type; an integer read as a floating-point number; more
///   enumeration cases in the reader; a value the reader accepts as null where the writer
///   never writes null; a new action tag (the old leader refuses it with `unknown-tag`);
/// - **incompatible**: a type changed (`Int` to `String`, an object to an array, ...); a
///   member the reader requires that the writer lacks (a required field added without a
///   default) or may leave out; a narrower integer type; an enumeration case the reader
///   cannot decode; null where the reader needs a value; undescribed (opaque) shapes that
///   differ; another schema version.
public enum SchemaCompatibility {
  /// The conflicts of a `reader` decoding what a `writer` encodes, at `path` of `subject`.
  public static func conflicts(
    reader: SchemaShape, writer: SchemaShape, subject: String,
    roles: (reader: String, writer: String), at path: JSONPointer = .root
  ) -> [SchemaConflict] {
    var found: [SchemaConflict] = []
    compare(reader, writer, at: path) { path, reason, readShape, writeShape in
      found.append(
        SchemaConflict(
          subject: subject, path: path, reason: reason,
          reader: (roles.reader, readShape), writer: (roles.writer, writeShape)))
    }
    return found
  }

  /// Whether a follower of `follower`'s schema can follow a leader of `leader`'s: the follower
  /// reads the leader's state, the leader reads the follower's actions.
  public static func follower(
    _ follower: ApplicationSchema, leader: ApplicationSchema
  ) -> SchemaVerdict {
    var verdict = SchemaVerdict()
    guard follower.version == leader.version else {
      verdict.conflicts.append(
        SchemaConflict(
          subject: "the schema version", path: .root,
          reason: "processes of different schema versions never share a state",
          reader: ("the follower", "version \(follower.version)"),
          writer: ("the leader", "version \(leader.version)")))
      return verdict
    }
    verdict.conflicts += conflicts(
      reader: follower.state.shape, writer: leader.state.shape, subject: "the state",
      roles: ("the follower", "the leader"))
    for tag in follower.actions.keys.sorted() {
      guard let leaderAction = leader.actions[tag] else {
        verdict.tagsUnknownToLeader.append(tag)
        continue
      }
      verdict.conflicts += conflicts(
        reader: leaderAction.shape, writer: follower.actions[tag]!.shape,
        subject: "action \"\(tag)\"", roles: ("the leader", "the follower"))
    }
    return verdict
  }

  /// The conflicts of a leader of `reader`'s state type starting from a journal whose state
  /// was written as `writer`.
  public static func journal(
    reader: SchemaDescription, writer: SchemaDescription
  ) -> [SchemaConflict] {
    conflicts(
      reader: reader.shape, writer: writer.shape, subject: "the journal's state",
      roles: ("this leader", "the journal"))
  }

  /// Reports a conflict: where, why, the shape read and the shape written.
  private typealias Report = (JSONPointer, String, String, String) -> Void

  private static func compare(
    _ reader: SchemaShape, _ writer: SchemaShape, at path: JSONPointer, report: Report
  ) {
    switch (reader, writer) {
    case (.anything, _):
      return
    case (.opaque(let a), .opaque(let b)) where a == b:
      return
    case (.nullable(let read), .nullable(let written)):
      compare(read, written, at: path, report: report)
    case (.nullable(let read), _):
      compare(read, writer, at: path, report: report)
    case (_, .nullable):
      report(path, "the value may be null where a value is needed", reader.summary, writer.summary)
    case (.boolean, .boolean), (.string, .string), (.data, .data), (.string, .data):
      return
    case (.string, .enumeration(let cases)) where cases.allSatisfy(\.isString):
      return
    case (.integer(let read), .integer(let written)):
      if !IntegerRange(read).covers(IntegerRange(written)) {
        report(path, "the integer type narrowed", reader.summary, writer.summary)
      }
    case (.number, .integer), (.number, .number):
      return
    case (.enumeration(let read), .enumeration(let written)):
      let unknown = written.filter { !read.contains($0) }
      if !unknown.isEmpty {
        let cases = unknown.map(\.canonicalText).joined(separator: ", ")
        report(path, "enumeration case \(cases) cannot be decoded", reader.summary, writer.summary)
      }
    case (.array(let read), .array(let written)):
      compare(read, written, at: path.appending("*"), report: report)
    case (.dictionary(let read), .dictionary(let written)):
      compare(read, written, at: path.appending("*"), report: report)
    case (.object(let read), .object(let written)):
      for name in read.keys.sorted(by: JSONObject.precedes) {
        let field = read[name]!
        let place = path.appending(name)
        guard let other = written[name] else {
          if field.required {
            report(
              place, "a required field without a default is missing", field.shape.summary,
              "no such field")
          }
          continue
        }
        if field.required && !other.required {
          report(
            place, "the field may be absent where it is required", field.shape.summary,
            other.shape.summary + " (optional)")
        }
        compare(field.shape, other.shape, at: place, report: report)
      }
    default:
      report(path, "the type changed", reader.summary, writer.summary)
    }
  }
}

/// What ``SchemaCompatibility/follower(_:leader:)`` found.
public struct SchemaVerdict: Sendable, Equatable {
  /// Why the follower cannot follow; empty when it can.
  public var conflicts: [SchemaConflict] = []
  /// The follower's action tags the leader does not know (compatible: the leader refuses
  /// such an action with `unknown-tag`).
  public var tagsUnknownToLeader: [String] = []

  public init() {}

  /// Whether the follower can follow.
  public var isCompatible: Bool { conflicts.isEmpty }
}

/// The values of a fixed-width integer type, by its name.
private struct IntegerRange {
  let signed: Bool
  let bits: Int

  init(_ name: String) {
    signed = !name.hasPrefix("U")
    let digits = name.drop { !$0.isNumber }
    bits = Int(digits) ?? 64
  }

  func covers(_ other: IntegerRange) -> Bool {
    switch (signed, other.signed) {
    case (true, true), (false, false): other.bits <= bits
    case (true, false): other.bits < bits
    case (false, true): false
    }
  }
}

extension JSONValue {
  fileprivate var isString: Bool {
    if case .string = self { return true }
    return false
  }
}
