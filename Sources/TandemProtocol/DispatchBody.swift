/// The frame after a `DISPATCH` or `DISPATCH-QUIET` command: the forwarded action's number,
/// generation, client id, tag and payload in one frame, so that an action costs the wire two
/// frames, command and body. (Under CURVE every frame is encrypted on its own.)
///
/// | bytes | content |
/// |---|---|
/// | 0 to 7 | action number, 1 to 2^64 − 2 |
/// | 8 to 15 | generation |
/// | 16, 17 | length *c* of the client id, 1 to 256 |
/// | 18, 19 | length *t* of the tag, at most 256 |
/// | 20... | the client id (*c* bytes) and the tag (*t*), UTF-8, then the payload to the end |
///
/// Integers are big-endian.
package enum DispatchBody {
  /// The bytes before the texts.
  static let fixedBytes = 20
  /// The most bytes a body holds beside its payload: the fixed fields, the longest client id
  /// and the longest tag.
  package static let maximumOverheadBytes =
    fixedBytes + FrameReader.clientIDBytes.upperBound + FrameReader.textBytes

  /// The body frame of `action`.
  static func frame(of action: ForwardedAction) -> Frame {
    let client = action.client.utf8
    let tag = action.tag.utf8
    var frame = Frame()
    frame.reserveCapacity(fixedBytes + client.count + tag.count + action.payload.count)
    frame.appendBigEndian(action.number, bytes: 8)
    frame.appendBigEndian(action.generation, bytes: 8)
    frame.appendLength(client.count)
    frame.appendLength(tag.count)
    frame.append(contentsOf: client)
    frame.append(contentsOf: tag)
    frame.append(contentsOf: action.payload)
    return frame
  }

  /// The action `body` holds, read in place; `command` names the request in errors.
  static func read(_ body: Frame, command: String) throws(ProtocolViolation) -> ForwardedAction {
    let result = body.withUnsafeBufferPointer { bytes in
      var cursor = ByteCursor(bytes)
      return read(&cursor, command: command)
    }
    return try result.get()
  }

  private static func read(
    _ cursor: inout ByteCursor, command: String
  ) -> Result<ForwardedAction, ProtocolViolation> {
    func failure(_ message: String) -> Result<ForwardedAction, ProtocolViolation> {
      .failure(ProtocolViolation("\(command): \(message)"))
    }
    guard cursor.remaining >= fixedBytes else {
      return failure("the action has \(cursor.remaining) bytes, fewer than \(fixedBytes)")
    }
    let number = cursor.integer(bytes: 8)
    // A follower numbers its actions from 1; 0 would be taken for a duplicate of nothing.
    guard number > 0 else { return failure("number is 0") }
    guard number < .max else { return failure("number must be below 2^64 - 1, got \(number)") }
    let generation = cursor.integer(bytes: 8)
    let clientBytes = Int(cursor.integer(bytes: 2))
    let tagBytes = Int(cursor.integer(bytes: 2))
    guard clientBytes > 0 else { return failure("client is empty") }
    let clientLimit = FrameReader.clientIDBytes.upperBound
    guard clientBytes <= clientLimit else {
      return failure("client is longer than \(clientLimit) bytes")
    }
    guard tagBytes <= FrameReader.textBytes else {
      return failure("tag is longer than \(FrameReader.textBytes) bytes")
    }
    guard clientBytes + tagBytes <= cursor.remaining else {
      return failure(
        "the client id and tag need \(clientBytes + tagBytes) bytes, \(cursor.remaining) remain")
    }
    guard let client = String(validUTF8: cursor.take(clientBytes)) else {
      return failure("client is not valid UTF-8")
    }
    guard let tag = String(validUTF8: cursor.take(tagBytes)) else {
      return failure("tag is not valid UTF-8")
    }
    let payload = Frame(cursor.take(cursor.remaining))
    return .success(
      ForwardedAction(
        client: client, number: number, generation: generation, tag: tag, payload: payload))
  }
}
