import StatePatch

/// One reason two schemas cannot share data: at ``path`` of ``subject``, what the ``reader``
/// decodes cannot read what the ``writer`` encodes.
///
/// Its description names the field path and the two shapes, as a refused `HELLO` says it:
/// `the state at /counter: the type changed: the follower reads String, the leader writes Int`.
public struct SchemaConflict: Sendable, Hashable, CustomStringConvertible {
  /// What the conflict is in: `the state`, `action "counter.set"`, `the schema version`.
  public var subject: String
  /// Where in it (the root for the whole value).
  public var path: JSONPointer
  /// Which rule it breaks, in words.
  public var reason: String
  /// Who reads (`the follower`, `the leader`, `the new build`) and the shape it reads.
  public var reader: (role: String, shape: String)
  /// Who writes and the shape it writes.
  public var writer: (role: String, shape: String)

  public init(
    subject: String, path: JSONPointer, reason: String, reader: (role: String, shape: String),
    writer: (role: String, shape: String)
  ) {
    self.subject = subject
    self.path = path
    self.reason = reason
    self.reader = reader
    self.writer = writer
  }

  public var description: String {
    let place = path.isRoot ? subject : "\(subject) at \(path)"
    return "\(place): \(reason): \(reader.role) reads \(reader.shape), "
      + "\(writer.role) writes \(writer.shape)"
  }

  public static func == (lhs: SchemaConflict, rhs: SchemaConflict) -> Bool {
    lhs.subject == rhs.subject && lhs.path == rhs.path && lhs.reason == rhs.reason
      && lhs.reader == rhs.reader && lhs.writer == rhs.writer
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(subject)
    hasher.combine(path)
    hasher.combine(reason)
  }
}
