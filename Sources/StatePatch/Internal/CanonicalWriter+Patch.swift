extension CanonicalWriter {
  /// Writes the canonical JSON of `patch` (what `patch.json` serializes to) without building
  /// the operation objects first: members in canonical order (`from`, `op`, `path`, `value`),
  /// pointers escaped as they are written.
  mutating func write(_ patch: JSONPatch) {
    bytes.reserveCapacity(bytes.count + 2 + patch.operations.count * 48)
    bytes.append(UInt8(ascii: "["))
    for (index, operation) in patch.operations.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      switch operation {
      case .move(let from, _), .copy(let from, _):
        append(#"{"from":"#)
        writePointer(from)
        append(#","op":""#)
      default:
        append(#"{"op":""#)
      }
      switch operation {
      case .add: append("add")
      case .remove: append("remove")
      case .replace: append("replace")
      case .move: append("move")
      case .copy: append("copy")
      case .test: append("test")
      }
      append(#"","path":"#)
      writePointer(operation.path)
      switch operation {
      case .add(_, let value), .replace(_, let value), .test(_, let value):
        append(#","value":"#)
        write(value)
      case .remove, .move, .copy:
        break
      }
      bytes.append(UInt8(ascii: "}"))
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes the RFC 6901 text of `pointer` as a JSON string: `/` before each token, `~` and
  /// `/` in tokens as `~0` and `~1`, then the string escapes of ``writeString(_:)``.
  mutating func writePointer(_ pointer: JSONPointer) {
    bytes.append(UInt8(ascii: "\""))
    for var token in pointer.tokens {
      bytes.append(UInt8(ascii: "/"))
      token.withUTF8 { writeToken($0) }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func writeToken(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") else { continue }
      writeEscaped(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      append(byte == UInt8(ascii: "~") ? "~0" : "~1")
    }
    writeEscaped(UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }
}
