/// Writes canonical JSON bytes without recursion: an explicit stack of the open containers.
struct CanonicalWriter {
  /// An array or object being written, and the index of its next element or member.
  private struct Frame {
    var elements: [JSONValue]
    var members: [(key: String, value: JSONValue)]
    var isObject: Bool
    var next: Int
    var count: Int { isObject ? members.count : elements.count }
  }

  /// The bytes written so far.
  var bytes: [UInt8] = []
  /// Scratch space for the digits of a double.
  var digits: [UInt8] = []

  mutating func write(_ root: JSONValue) {
    var stack: [Frame] = []
    var current = root
    while true {
      switch current {
      case .null: append("null")
      case .bool(let value): append(value ? "true" : "false")
      case .int(let value): writeInteger(value.magnitude, negative: value < 0)
      case .uint(let value): writeInteger(value, negative: false)
      case .double(let value): writeDouble(value)
      case .string(let value): writeString(value)
      case .array(let elements):
        if elements.isEmpty {
          append("[]")
        } else {
          bytes.append(UInt8(ascii: "["))
          current = elements[0]
          stack.append(Frame(elements: elements, members: [], isObject: false, next: 1))
          continue
        }
      case .object(let object):
        if object.isEmpty {
          append("{}")
        } else {
          bytes.append(UInt8(ascii: "{"))
          writeString(object.members[0].key)
          bytes.append(UInt8(ascii: ":"))
          current = object.members[0].value
          stack.append(Frame(elements: [], members: object.members, isObject: true, next: 1))
          continue
        }
      }
      // The value is written: move to the next element or member, closing finished containers.
      while true {
        guard !stack.isEmpty else { return }
        let top = stack.count - 1
        let next = stack[top].next
        if next == stack[top].count {
          bytes.append(stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
          stack.removeLast()
          continue
        }
        bytes.append(UInt8(ascii: ","))
        stack[top].next = next + 1
        if stack[top].isObject {
          writeString(stack[top].members[next].key)
          bytes.append(UInt8(ascii: ":"))
          current = stack[top].members[next].value
        } else {
          current = stack[top].elements[next]
        }
        break
      }
    }
  }

  mutating func append(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Decimal digits, no leading zeros, `-` before negatives.
  mutating func writeInteger(_ magnitude: UInt64, negative: Bool) {
    if magnitude < 10 && !negative {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
      return
    }
    // At most 20 digits and a sign, written backward into a fixed buffer, appended at once.
    var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &scratch) { buffer in
      var index = buffer.count
      var rest = magnitude
      repeat {
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      } while rest > 0
      if negative {
        index -= 1
        buffer[index] = UInt8(ascii: "-")
      }
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
    }
  }

  /// A string in quotes: `"` and `\` escaped with a backslash, the control characters
  /// U+0000...U+001F as `\b \f \n \r \t` or else `\u00XX` (lowercase hex), all else as is.
  mutating func writeString(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text  // `withUTF8` makes a bridged string contiguous; a native one is as is.
    text.withUTF8 { writeEscaped($0) }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends UTF-8 bytes with the string escapes, without quotes.
  mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      runStart = index + 1
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
      case 0x08: bytes.append(UInt8(ascii: "b"))
      case 0x0C: bytes.append(UInt8(ascii: "f"))
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      default:
        let hex: StaticString = "0123456789abcdef"
        append("u00")
        bytes.append(hex.utf8Start[Int(byte >> 4)])
        bytes.append(hex.utf8Start[Int(byte & 0x0F)])
      }
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
  }
}
