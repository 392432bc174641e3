/// The head frame of a delta on the wire: its sequence, its action count and every action's
/// origin and tag in one frame, so that a delta costs two frames (head and patch) however many
/// actions it applies. (Under CURVE every frame is encrypted on its own.)
///
/// | bytes | content |
/// |---|---|
/// | 0 to 7 | sequence *s* of the state the delta produces |
/// | 8 to 15 | action count *k* |
/// | 16... | *k* action records (below), in sequence order |
///
/// An action record:
///
/// | bytes | content |
/// |---|---|
/// | 0 to 7 | the origin's action number |
/// | 8 to 15 | the origin's generation |
/// | 16, 17 | length *c* of the origin's client id |
/// | 18, 19 | length *n* of the origin's key name |
/// | 20, 21 | length *t* of the tag |
/// | 22... | the client id (*c* bytes), the key name (*n*), the tag (*t*), UTF-8 |
///
/// Integers are big-endian.
enum DeltaHead {
  /// The bytes of the sequence and the count.
  static let fixedBytes = 16
  /// The bytes of an action record before its texts.
  static let recordHeaderBytes = 22

  /// The head frame of `delta`.
  static func frame(of delta: Delta) -> Frame {
    var frame = Frame()
    frame.reserveCapacity(byteCount(of: delta))
    append(delta, to: &frame)
    return frame
  }

  /// How many bytes `delta`'s head takes.
  static func byteCount(of delta: Delta) -> Int {
    var size = fixedBytes
    for action in delta.actions {
      size +=
        recordHeaderBytes + action.origin.client.utf8.count + action.origin.key.utf8.count
        + action.tag.utf8.count
    }
    return size
  }

  /// Appends `delta`'s head to `frame`.
  static func append(_ delta: Delta, to frame: inout Frame) {
    frame.appendBigEndian(delta.sequence, bytes: 8)
    frame.appendBigEndian(UInt64(delta.actions.count), bytes: 8)
    for action in delta.actions {
      let client = action.origin.client.utf8
      let key = action.origin.key.utf8
      let tag = action.tag.utf8
      frame.appendBigEndian(action.origin.number, bytes: 8)
      frame.appendBigEndian(action.origin.generation, bytes: 8)
      frame.appendLength(client.count)
      frame.appendLength(key.count)
      frame.appendLength(tag.count)
      frame.append(contentsOf: client)
      frame.append(contentsOf: key)
      frame.append(contentsOf: tag)
    }
  }

  /// The sequence and the actions `head` holds, read in place; `command` names the message in
  /// errors, and `recent`, when there is one, decodes the texts that repeat once.
  static func read(
    _ head: Frame, command: String, reusing recent: inout RecentStrings?
  ) -> Result<(sequence: UInt64, actions: [AppliedAction]), ProtocolViolation> {
    head.withUnsafeBufferPointer { bytes in read(bytes, command: command, reusing: &recent) }
  }

  /// ``read(_:command:reusing:)`` over the bytes of a head inside a larger frame.
  static func read(
    _ head: UnsafeBufferPointer<UInt8>, command: String, reusing recent: inout RecentStrings?
  ) -> Result<(sequence: UInt64, actions: [AppliedAction]), ProtocolViolation> {
    var reader = DeltaHeadReader(bytes: head, command: command)
    return reader.read(reusing: &recent)
  }
}

/// Reads a head frame's fields in place, front to back.
private struct DeltaHeadReader {
  var cursor: ByteCursor
  let command: String

  init(bytes: UnsafeBufferPointer<UInt8>, command: String) {
    self.cursor = ByteCursor(bytes)
    self.command = command
  }

  mutating func read(
    reusing recent: inout RecentStrings?
  ) -> Result<(sequence: UInt64, actions: [AppliedAction]), ProtocolViolation> {
    guard cursor.bytes.count >= DeltaHead.fixedBytes else {
      return failure("the head has \(cursor.bytes.count) bytes, fewer than \(DeltaHead.fixedBytes)")
    }
    let sequence = cursor.integer(bytes: 8)
    guard sequence < .max else {
      return failure("sequence must be below 2^64 - 1, got \(sequence)")
    }
    let count = cursor.integer(bytes: 8)
    guard count >= 1, count <= sequence else {
      return failure("a delta at sequence \(sequence) cannot apply \(count) actions")
    }
    // Refuse a count the head cannot hold before reserving room for it.
    guard count <= UInt64((cursor.remaining) / DeltaHead.recordHeaderBytes) else {
      return failure("action count \(count) exceeds the head's \(cursor.bytes.count) bytes")
    }
    if count > 1, recent == nil { recent = RecentStrings() }
    var actions: [AppliedAction] = []
    actions.reserveCapacity(Int(count))
    for index in 1...count {
      switch action(index, of: count, &recent) {
      case .success(let action): actions.append(action)
      case .failure(let violation): return .failure(violation)
      }
    }
    guard cursor.remaining == 0 else {
      return failure("\(cursor.remaining) unexpected byte(s) after the last action")
    }
    return .success((sequence, actions))
  }

  private mutating func action(
    _ index: UInt64, of count: UInt64, _ recent: inout RecentStrings?
  ) -> Result<AppliedAction, ProtocolViolation> {
    guard cursor.remaining >= DeltaHead.recordHeaderBytes else {
      return failure("action \(index) of \(count) is cut short")
    }
    let number = cursor.integer(bytes: 8)
    guard number < .max else { return failure("number must be below 2^64 - 1, got \(number)") }
    let generation = cursor.integer(bytes: 8)
    let clientBytes = Int(cursor.integer(bytes: 2))
    let keyBytes = Int(cursor.integer(bytes: 2))
    let tagBytes = Int(cursor.integer(bytes: 2))
    guard clientBytes + keyBytes + tagBytes <= cursor.remaining else {
      return failure("action \(index) of \(count) is cut short")
    }
    let client: String
    let key: String
    let tag: String
    switch text("origin", count: clientBytes, limit: FrameReader.clientIDBytes.upperBound, &recent)
    {
    case .success(let text): client = text
    case .failure(let violation): return .failure(violation)
    }
    switch text("key", count: keyBytes, limit: FrameReader.textBytes, &recent) {
    case .success(let text): key = text
    case .failure(let violation): return .failure(violation)
    }
    switch text("tag", count: tagBytes, limit: FrameReader.textBytes, &recent) {
    case .success(let text): tag = text
    case .failure(let violation): return .failure(violation)
    }
    let origin = Origin(client: client, number: number, generation: generation, key: key)
    return .success(AppliedAction(origin: origin, tag: tag))
  }

  private mutating func text(
    _ field: String, count: Int, limit: Int, _ recent: inout RecentStrings?
  ) -> Result<String, ProtocolViolation> {
    guard count <= limit else { return failure("\(field) is longer than \(limit) bytes") }
    guard count > 0 else { return .success("") }
    let slice = cursor.take(count)
    let decoded = recent == nil ? String(validUTF8: slice) : recent!.validString(slice)
    guard let text = decoded else { return failure("\(field) is not valid UTF-8") }
    return .success(text)
  }

  private func failure<T>(_ message: String) -> Result<T, ProtocolViolation> {
    .failure(ProtocolViolation("\(command): \(message)"))
  }
}
