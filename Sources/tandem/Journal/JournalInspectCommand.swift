import CommandLineKit
import StatePatch
import TandemJournal
import TandemProtocol
import TandemSync

/// `tandem journal inspect --db LOCATION [--json]`: the journal's epoch, sequences, snapshot
/// and the schema of the state type that wrote it, clients and sizes (and, for PostgreSQL, the
/// lease). Reads in one transaction without the leader's lock or lease, so it works while a
/// leader runs, and writes nothing.
let journalInspectCommand = Command(
  name: "inspect",
  summary: "Print a journal's epoch, sequence range, snapshot, clients and sizes",
  usage: "--db LOCATION [--json] [--actions N]\n\n" + journalLocationHelp
    + "                 Read in one transaction, writing nothing; a leader may be running.\n"
    + "  --json         one JSON object instead of text, for scripts\n"
    + "  --actions N    also list the latest N actions kept: sequence, tag, sender (client id\n"
    + "                 and number) and the name of the CURVE key that sent it (the audit\n"
    + "                 trail; empty for the leader's own actions and without keys)",
  run: { words in
    var arguments = try CommandLineArguments(words, flags: ["json"])
    let location = try journalLocation(&arguments)
    let json = arguments.flag("json")
    let actionCount = try arguments.integer("actions", default: 0, in: 0...1_000_000)
    try arguments.finish()
    let journal = try readJournal(location)
    defer { journal.close() }
    let inspection = try journal.inspect(actions: actionCount)
    try writeLine(
      json
        ? inspectJSON(inspection, listingActions: actionCount > 0)
        : inspectText(inspection) + actionLines(inspection.actions))
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

/// The human-readable report, the same for both kinds of journal but for the lines of where
/// the records are kept.
func inspectText(_ inspection: JournalInspection) -> String {
  let stats = inspection.stats
  let schema = SnapshotSchema(inspection.snapshotSchema)
  let range =
    stats.oldestSequence.map { "\($0)...\(stats.lastSequence)" } ?? "none kept"
  let snapshot =
    stats.snapshotSequence.map { sequence in
      "at sequence \(sequence), hash \(JournalOutput.hex(stats.snapshotHash ?? 0)), "
        + "\(JournalOutput.size(stats.snapshotBytes ?? 0)) (\(stats.snapshotCount) stored)"
    } ?? "none (a new journal)"
  var lines: [(String, String)] = [
    ("journal", inspection.location),
    (
      "format", "version \(stats.formatVersion)" + (stats.file == nil ? " (PostgreSQL tables)" : "")
    ),
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
  ]
  switch stats.storage {
  case .file(let file):
    lines.append(
      (
        "file",
        "\(JournalOutput.size(file.bytes)) (\(file.pageCount) pages of \(file.pageSize) B, "
          + "\(file.freePages) free)"
      ))
    lines.append(("write-ahead log", JournalOutput.size(file.walBytes)))
  case .database(let database):
    lines.append(("tables", JournalOutput.size(database.tableBytes)))
    lines.append(("lease", leaseText(database.lease)))
  }
  let width = lines.map(\.0.count).max() ?? 0
  return lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
    .joined(separator: "\n")
}

/// The lease as the report's line shows it.
func leaseText(_ lease: LeaseRecord?) -> String {
  guard let lease else { return "never taken" }
  let holder = "\(lease.holder) (fencing epoch \(lease.fencingEpoch), control \(lease.control))"
  return lease.isExpired
    ? "expired; last held by \(holder)"
    : "held by \(holder), \(JournalOutput.seconds(lease.remaining)) s left"
}

/// The JSON report: one object, sizes in bytes, the epoch and hash as 16 hex digits, the
/// actions when they were asked for.
func inspectJSON(_ inspection: JournalInspection, listingActions: Bool = false) -> String {
  let stats = inspection.stats
  let schema = SnapshotSchema(inspection.snapshotSchema)
  let snapshot =
    stats.snapshotSequence.map { sequence in
      JournalOutput.object([
        ("sequence", "\(sequence)"),
        ("hash", JournalOutput.json(JournalOutput.hex(stats.snapshotHash ?? 0))),
        ("bytes", JournalOutput.number(stats.snapshotBytes)),
      ])
    } ?? "null"
  var members: [(String, String)] = [
    ("path", JournalOutput.json(inspection.location)),
    ("backend", JournalOutput.json(stats.file == nil ? "postgres" : "sqlite")),
    ("formatVersion", "\(stats.formatVersion)"),
    ("epoch", JournalOutput.json("\(stats.epoch)")),
    ("oldestSequence", JournalOutput.number(stats.oldestSequence)),
    ("lastSequence", "\(stats.lastSequence)"),
    ("deltaCount", "\(stats.deltaCount)"),
    ("patchCount", "\(stats.patchCount)"),
    ("deltaBytes", "\(stats.deltaBytes)"),
    ("snapshot", snapshot),
    ("snapshotCount", "\(stats.snapshotCount)"),
    ("stateSchema", schema.json),
    ("deltasSinceSnapshot", "\(stats.deltasSinceSnapshot)"),
    ("bytesSinceSnapshot", "\(stats.bytesSinceSnapshot)"),
    ("clientCount", "\(stats.clientCount)"),
    ("forgottenThrough", "\(stats.forgottenThrough)"),
  ]
  switch stats.storage {
  case .file(let file):
    members += [
      ("fileBytes", "\(file.bytes)"), ("walBytes", "\(file.walBytes)"),
      ("pageSize", "\(file.pageSize)"), ("pageCount", "\(file.pageCount)"),
      ("freePages", "\(file.freePages)"),
    ]
  case .database(let database):
    let lease =
      database.lease.map { lease in
        JournalOutput.object([
          ("holder", JournalOutput.json(lease.holder)),
          ("control", JournalOutput.json(lease.control)),
          ("updates", JournalOutput.json(lease.updates)),
          ("fencingEpoch", "\(lease.fencingEpoch)"),
          ("expired", lease.isExpired ? "true" : "false"),
          ("remainingSeconds", JournalOutput.seconds(lease.remaining)),
        ])
      } ?? "null"
    members += [("tableBytes", "\(database.tableBytes)"), ("lease", lease)]
  }
  if listingActions {
    let actions = inspection.actions.map { action in
      JournalOutput.object([
        ("sequence", "\(action.sequence)"), ("tag", JournalOutput.json(action.tag)),
        ("client", JournalOutput.json(action.origin.client)),
        ("number", "\(action.origin.number)"), ("key", JournalOutput.json(action.origin.key)),
      ])
    }
    members.append(("actions", "[" + actions.joined(separator: ",") + "]"))
  }
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

  /// The schema in `bytes`, the latest snapshot's (nil when there is none).
  init(_ bytes: [UInt8]?) {
    guard let bytes else {
      self = .none
      return
    }
    guard !bytes.isEmpty else {
      self = .notRecorded
      return
    }
    do {
      self = .recorded(try SchemaDescription(json: try JSONParser().parse(bytes)))
    } catch {
      self = .unreadable("\(error)")
    }
  }

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
