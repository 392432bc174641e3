import CommandLineKit
import StatePatch

/// How `tandem snapshot` shows the leader's state: the value at a path, indented for people or
/// as one line of canonical JSON for scripts.
public enum SnapshotReport {
  /// The value at `path` in the snapshot's state, rendered.
  ///
  /// - Throws: a failure with status ``CommandLineKit/ExitStatus/notFound`` when the state has
  ///   no value at `path`.
  public static func render(
    _ snapshot: Snapshot, path: JSONPointer, json: Bool
  ) throws(CommandFailure) -> String {
    guard let value = snapshot.state[pointer: path] else {
      throw CommandFailure(
        .notFound,
        "the leader's state has nothing at \(path) (sequence \(snapshot.sequence)); "
          + "run without --path to see the whole state")
    }
    return json ? value.canonicalText : PrettyJSON.text(value)
  }
}
