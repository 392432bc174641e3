import StatePatch
import TandemProtocol
import TandemSync

/// How `tandem watch` shows deltas: one block of lines per delta for people (a line for each
/// action it applies, then its operations), one canonical JSON document per line for scripts,
/// optionally only the operations that touch one path.
///
/// ```text
/// #41 counter.increment from 9c1e...#6 key worker-1
/// #42 counter.increment from 9c1e...#7 key worker-1
///   replace /count 42
/// ```
public struct DeltaReport: Sendable {
  /// Only operations whose path is this pointer, inside it, or above it are shown.
  public var path: JSONPointer
  /// Canonical JSON lines instead of text.
  public var json: Bool
  /// Values longer than this many characters are shortened in the text output.
  public var valueWidth = 72

  /// A report of the operations at `path` (all by default), as text or as JSON lines.
  public init(path: JSONPointer = .root, json: Bool = false) {
    self.path = path
    self.json = json
  }

  /// The output for `delta`, or `nil` when none of its operations touch ``path``.
  public func render(_ delta: Delta, epoch: Epoch) throws(JSONPatchError) -> String? {
    let patch: JSONPatch
    do {
      patch = try JSONPatch(json: JSONParser().parse(delta.patch))
    } catch let error as JSONPatchError {
      throw error
    } catch {
      throw JSONPatchError(
        operationIndex: 0, pointer: .root, reason: .malformed("the patch is not JSON: \(error)"))
    }
    let operations = patch.operations.filter(touchesPath)
    if operations.isEmpty && !path.isRoot { return nil }
    if json {
      let actions = delta.sequencedActions.map { sequence, action -> JSONValue in
        .object(
          JSONObject([
            ("sequence", .uint(sequence).normalized),
            ("tag", .string(action.tag)),
            (
              "origin",
              .object(
                JSONObject([
                  ("client", .string(action.origin.client)),
                  ("key", .string(action.origin.key)),
                  ("number", .uint(action.origin.number).normalized),
                ]))
            ),
          ]))
      }
      let document: JSONValue = .object(
        JSONObject([
          ("epoch", .string(epoch.description)),
          ("sequence", .uint(delta.sequence).normalized),
          ("actions", .array(actions)),
          ("patch", JSONPatch(operations).json),
        ]))
      return document.canonicalText
    }
    var lines = delta.sequencedActions.map { sequence, action in
      "#\(sequence) \(action.tag.isEmpty ? "(untagged)" : action.tag) from \(action.origin)"
        + (action.origin.key.isEmpty ? "" : " key \(action.origin.key)")
    }
    for operation in operations {
      lines.append("  " + describe(operation))
    }
    return lines.joined(separator: "\n")
  }

  /// Where a watch of `follower` starts: the epoch and sequence its replica shows, to check the
  /// first delta against with ``resync(after:before:epoch:)``, so that deltas applied before the
  /// watch received any are marked as a jump. Epoch zero, which no leader mints, stands for a
  /// replica without an epoch yet: the first delta is then marked too.
  public static func start(of follower: FollowerStatistics) -> (epoch: Epoch, sequence: UInt64) {
    (Epoch(rawValue: UInt64(follower.epoch, radix: 16) ?? 0), follower.sequence)
  }

  /// The line that marks a resync before `delta` of `epoch`, or nil when `delta` continues from
  /// `last`, the epoch and sequence seen before it: same epoch, and the delta's first sequence
  /// (a delta may apply several actions) just after `last.sequence`.
  public func resync(
    after last: (epoch: Epoch, sequence: UInt64), before delta: Delta, epoch: Epoch
  ) -> String? {
    guard last.epoch != epoch || delta.firstSequence != last.sequence + 1 else { return nil }
    return resync(epoch: epoch, from: last.sequence, to: delta.firstSequence - 1)
  }

  /// The line that marks a jump: the replica went from `old` to `new` without the deltas between
  /// reaching the watch (a resync from a snapshot, or deltas applied as the watch began).
  public func resync(epoch: Epoch, from old: UInt64, to new: UInt64) -> String {
    if json {
      return JSONValue.object(
        JSONObject([
          ("event", .string("resync")), ("epoch", .string(epoch.description)),
          ("from", .uint(old).normalized), ("sequence", .uint(new).normalized),
        ])
      ).canonicalText
    }
    return "-- jumped from sequence \(old) to \(new) (epoch \(epoch)) without showing the deltas "
      + "between: a resync from a snapshot, or deltas applied as the watch began"
  }

  private func touchesPath(_ operation: PatchOperation) -> Bool {
    if path.isRoot { return true }
    var pointers = [operation.path]
    switch operation {
    case .move(let from, _), .copy(let from, _): pointers.append(from)
    default: break
    }
    return pointers.contains { $0.isPrefix(of: path) || path.isPrefix(of: $0) }
  }

  private func describe(_ operation: PatchOperation) -> String {
    switch operation {
    case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
      "\(operation.name) \(display(path)) \(shorten(value.canonicalText))"
    case .remove(let path):
      "remove \(display(path))"
    case .move(let from, let path), .copy(let from, let path):
      "\(operation.name) \(display(from)) -> \(display(path))"
    }
  }

  private func display(_ pointer: JSONPointer) -> String {
    pointer.isRoot ? "(root)" : pointer.description
  }

  private func shorten(_ text: String) -> String {
    guard text.count > valueWidth else { return text }
    return String(text.prefix(valueWidth)) + "... (\(text.utf8.count) bytes)"
  }
}

extension JSONValue {
  /// An unsigned integer as JSON's canonical number kind: `int` when it fits.
  var normalized: JSONValue {
    if case .uint(let value) = self, value <= UInt64(Int64.max) { return .int(Int64(value)) }
    return self
  }
}
