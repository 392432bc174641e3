/// The parser's state over one input buffer: an explicit stack of open containers whose pending
/// elements, keys and members wait in flat arrays until the container closes.
struct ParserCore {
  /// An array or object that is open.
  struct Frame {
    var isObject: Bool
    /// Where this container's values start in `values`.
    var valueStart: Int
    /// Where this object's keys start in `keys`.
    var keyStart: Int
  }

  let input: UnsafeBufferPointer<UInt8>
  let maximumDepth: Int
  var offset = 0
  var frames: [Frame] = []
  var values: [JSONValue] = []
  var keys: [(key: String, offset: Int)] = []
  var scratch: [UInt8] = []

  init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.input = input
    self.maximumDepth = maximumDepth
  }

  func failure(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
    JSONParseError(offset: offset ?? self.offset, reason: reason)
  }

  /// The failure for the byte at `offset`, or for the end of input.
  func unexpected() -> JSONParseError {
    offset < input.count ? failure(.unexpectedByte(input[offset])) : failure(.unexpectedEnd)
  }

  mutating func skipWhitespace() {
    while offset < input.count {
      switch input[offset] {
      case 0x20, 0x0A, 0x0D, 0x09: offset += 1
      default: return
      }
    }
  }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    var value: JSONValue
    parsing: while true {
      guard offset < input.count else { throw failure(.unexpectedEnd) }
      switch input[offset] {
      case UInt8(ascii: "{"):
        try open(isObject: true)
        skipWhitespace()
        if offset < input.count, input[offset] == UInt8(ascii: "}") {
          offset += 1
          frames.removeLast()
          value = .object(JSONObject())
        } else {
          try parseKeyAndColon()
          continue parsing
        }
      case UInt8(ascii: "["):
        try open(isObject: false)
        skipWhitespace()
        if offset < input.count, input[offset] == UInt8(ascii: "]") {
          offset += 1
          frames.removeLast()
          value = .array([])
        } else {
          continue parsing
        }
      case UInt8(ascii: "\""):
        value = .string(try parseString())
      case UInt8(ascii: "t"):
        try expectLiteral("true")
        value = .bool(true)
      case UInt8(ascii: "f"):
        try expectLiteral("false")
        value = .bool(false)
      case UInt8(ascii: "n"):
        try expectLiteral("null")
        value = .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = try parseNumber()
      default:
        throw unexpected()
      }
      // A value is complete: hand it to the open container, closing containers as they end.
      while true {
        guard let frame = frames.last else {
          skipWhitespace()
          guard offset == input.count else { throw failure(.trailingData) }
          return value
        }
        values.append(value)
        skipWhitespace()
        guard offset < input.count else { throw failure(.unexpectedEnd) }
        let byte = input[offset]
        if byte == UInt8(ascii: ",") {
          let comma = offset
          offset += 1
          skipWhitespace()
          let closer = frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
          if offset < input.count, input[offset] == closer {
            throw failure(.trailingComma, at: comma)
          }
          if frame.isObject { try parseKeyAndColon() }
          continue parsing
        }
        if byte == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          offset += 1
          frames.removeLast()
          value = frame.isObject ? try closeObject(frame) : closeArray(frame)
          continue
        }
        throw unexpected()
      }
    }
  }

  mutating func open(isObject: Bool) throws(JSONParseError) {
    guard frames.count < maximumDepth else { throw failure(.tooDeep(limit: maximumDepth)) }
    frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
    offset += 1
  }

  /// Reads `"key"`, whitespace and `:` inside an object, then skips to the value.
  mutating func parseKeyAndColon() throws(JSONParseError) {
    guard offset < input.count, input[offset] == UInt8(ascii: "\"") else { throw unexpected() }
    let keyOffset = offset
    keys.append((try parseString(), keyOffset))
    skipWhitespace()
    guard offset < input.count, input[offset] == UInt8(ascii: ":") else { throw unexpected() }
    offset += 1
    skipWhitespace()
  }

  mutating func closeArray(_ frame: Frame) -> JSONValue {
    let elements = Array(values[frame.valueStart...])
    values.removeSubrange(frame.valueStart...)
    return .array(elements)
  }

  mutating func closeObject(_ frame: Frame) throws(JSONParseError) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    members.reserveCapacity(values.count - frame.valueStart)
    var sorted = true
    for (index, value) in values[frame.valueStart...].enumerated() {
      let key = keys[frame.keyStart + index].key
      if sorted, let last = members.last, UTF8Bytes.compare(last.key, key) >= 0 { sorted = false }
      members.append((key, value))
    }
    if !sorted {
      let keyOffsets = keys[frame.keyStart...].map(\.offset)
      var order = Array(members.indices)
      order.sort { UTF8Bytes.compare(members[$0].key, members[$1].key) < 0 }
      for (previous, next) in zip(order, order.dropFirst())
      where UTF8Bytes.equal(members[previous].key, members[next].key) {
        let later = max(previous, next)
        throw failure(.duplicateKey(members[later].key), at: keyOffsets[later])
      }
      members = order.map { members[$0] }
    }
    values.removeSubrange(frame.valueStart...)
    keys.removeSubrange(frame.keyStart...)
    return .object(JSONObject(uncheckedSortedMembers: members))
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
    for index in 0..<count {
      guard offset < input.count else { throw failure(.unexpectedEnd) }
      guard input[offset] == bytes[index] else { throw unexpected() }
      offset += 1
    }
  }
}
