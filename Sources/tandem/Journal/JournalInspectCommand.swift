import CommandLineKit
import StatePatch
import TandemJournal
import TandemSync

/// `tandem journal inspect --db PATH [--json]`: the journal's epoch, sequences, snapshot and
/// the schema of the state type that wrote it, clients and sizes. Opens the file read-only, so it works while a leader runs.
let journalInspectCommand = Command(
  name: "inspect",
  summary: "Print a journal's epoch, sequence range, snapshot, clients and sizes",
  usage: "--db PATH [--json] [--actions N]\n\n"
    + "  --db PATH    the journal file (opened read-only; a leader may be running)\n"
    + "  --json       one JSON object instead of text, for scripts\n"
    + "  --actions N  also list the latest N actions kept: sequence, tag, sender (client id\n"
    + "               and number) and the name of the CURVE key that sent it (the audit\n"
    + "               trail; empty for the leader's own actions and without keys)",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["json"])
    let path = try journalPath(&arguments, command: "inspect")
    let json = arguments.flag("json")
    let actionCount = try arguments.integer("actions", default: 0, in: 0...1_000_000)
    try arguments.finish()
    let journal = try readJournal(at: path)
    let stats = try journal.stats()
    let actions = try journal.recentActions(actionCount)
    let schema = snapshotSchema(try journal.latestSnapshot())
    try writeLine(
      json
        ? inspectJSON(
          path: path, stats, schema: schema, actions: actionCount > 0 ? actions : nil)
        : inspectText(path: path, stats, schema: schema) + actionLines(actions))
  }
)

/// The text lines of the listed actions, after a blank line.
func actionLines(_ actions: [Journal.RecordedAction]) -> String {
  guard !actions.isEmpty else { return "" }
  return "\n\nactions\n"
    + actions.map { action in
      "  #\(action.sequence) \(action.tag) from \(action.origin)"
        + (action.origin.key.isEmpty ? "" : " key \(action.origin.key)")
    }.joined(separator: "\n")
}

/// The human-readable report.
func inspectText(
  path: String, _ stats: JournalStats, schema: SnapshotSchema = .none
)
  -> String
{
  let range =
    stats.oldestSequence.map { "\($0)...\(stats.lastSequence)" } ?? "none kept"
  let snapshot =
    stats.snapshotSequence.map { sequence in
      "at sequence \(sequence), hash \(JournalOutput.hex(stats.snapshotHash ?? 0)), "
        + "\(JournalOutput.size(stats.snapshotBytes ?? 0)) (\(stats.snapshotCount) stored)"
    } ?? "none (a new journal)"
  let lines: [(String, String)] = [
    ("journal", path),
    ("format", "version \(stats.formatVersion)"),
    ("epoch", "\(stats.epoch)"),
    ("last sequence", "\(stats.lastSequence)"),
    (
      "deltas",
      "\(range): \(stats.patchCount) deltas of \(stats.deltaCount) actions, "
        + "\(JournalOutput.size(stats.deltaBytes)) of patches"
    ),
    ("snapshot", snapshot),
    ("state schema", schema.text),
    (
      "since snapshot",
      "\(stats.deltasSinceSnapshot) actions, \(JournalOutput.size(stats.bytesSinceSnapshot))"
    ),
    ("clients", "\(stats.clientCount), forgotten through sequence \(stats.forgottenThrough)"),
    (
      "file",
      "\(JournalOutput.size(stats.fileBytes)) (\(stats.pageCount) pages of \(stats.pageSize) B, "
        + "\(stats.freePages) free)"
    ),
    ("write-ahead log", JournalOutput.size(stats.walBytes)),
  ]
  let width = lines.map(\.0.count).max() ?? 0
  return lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
    .joined(separator: "\n")
}

/// The JSON report: one object, sizes in bytes, the epoch and hash as 16 hex digits.
func inspectJSON(
  path: String, _ stats: JournalStats, schema: SnapshotSchema = .none,
  actions: [Journal.RecordedAction]? = nil
) -> String {
  let snapshot =
    stats.snapshotSequence.map { sequence in
      JournalOutput.object([
        ("sequence", "\(sequence)"),
        ("hash", JournalOutput.json(JournalOutput.hex(stats.snapshotHash ?? 0))),
        ("bytes", JournalOutput.number(stats.snapshotBytes)),
      ])
    } ?? "null"
  let listed = actions.map { actions in
    "["
      + actions.map { action in
        JournalOutput.object([
          ("sequence", "\(action.sequence)"), ("tag", JournalOutput.json(action.tag)),
          ("client", JournalOutput.json(action.origin.client)),
          ("number", "\(action.origin.number)"), ("key", JournalOutput.json(action.origin.key)),
        ])
      }.joined(separator: ",") + "]"
  }
  var members: [(String, String)] = [
    ("path", JournalOutput.json(path)),
    ("formatVersion", "\(stats.formatVersion)"),
    ("epoch", JournalOutput.json("\(stats.epoch)")),
    ("oldestSequence", JournalOutput.number(stats.oldestSequence)),
    ("lastSequence", "\(stats.lastSequence)"),
    ("deltaCount", "\(stats.deltaCount)"),
    ("patchCount", "\(stats.patchCount)"),
    ("deltaBytes", "\(stats.deltaBytes)"),
    ("snapshot", snapshot),
    ("state schema", schema.text),
    ("snapshotCount", "\(stats.snapshotCount)"),
    ("stateSchema", schema.json),
    ("deltasSinceSnapshot", "\(stats.deltasSinceSnapshot)"),
    ("bytesSinceSnapshot", "\(stats.bytesSinceSnapshot)"),
    ("clientCount", "\(stats.clientCount)"),
    ("forgottenThrough", "\(stats.forgottenThrough)"),
    ("fileBytes", "\(stats.fileBytes)"),
    ("walBytes", "\(stats.walBytes)"),
    ("pageSize", "\(stats.pageSize)"),
    ("pageCount", "\(stats.pageCount)"),
    ("freePages", "\(stats.freePages)"),
  ]
  if let listed { members.append(("actions", listed)) }
  return JournalOutput.object(members)
}

/// The schema recorded with a journal's latest snapshot.
enum SnapshotSchema {
  /// No snapshot.
  case none
  /// A snapshot stored before format version 6, which recorded no schema.
  case notRecorded
  case recorded(SchemaDescription)
  /// Bytes that are not a schema description.
  case unreadable(String)

  /// One line: the state type and its shape.
  var text: String {
    switch self {
    case .none: "none"
    case .notRecorded: "not recorded (the snapshot was stored before format version 6)"
    case .recorded(let schema): "\(schema.typeName) \(schema.shape.summary)"
    case .unreadable(let reason): "unreadable: \(reason)"
    }
  }

  /// The recorded description as JSON, or null.
  var json: String {
    if case .recorded(let schema) = self { return schema.json.canonicalText }
    return "null"
  }
}

/// The schema recorded with `snapshot`.
func snapshotSchema(_ snapshot: JournalSnapshot?) -> SnapshotSchema {
  guard let snapshot else { return .none }
  guard !snapshot.schema.isEmpty else { return .notRecorded }
  do {
    return .recorded(try SchemaDescription(json: try JSONParser().parse(snapshot.schema)))
  } catch {
    return .unreadable("\(error)")
  }
}
