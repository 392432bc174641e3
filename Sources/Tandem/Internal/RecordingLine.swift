#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON-lines format of a recording: one object per line,
/// `{"tag":"bookmark.add","time":1764452400.25,"payload":{"url":"https://swift.org"}}`, with
/// `time` in seconds since 1970 and `payload` the action as the registry encodes it.
enum RecordingLine {
  /// The line (with its newline) for an action encoded as `tag` and `payload` at `time`.
  static func encode(tag: String, payload: [UInt8], time: Date) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(payload.count + tag.utf8.count + 48)
    line.append(contentsOf: #"{"tag":"#.utf8)
    appendJSONString(tag, to: &line)
    let seconds = time.timeIntervalSince1970
    line.append(contentsOf: #","time":"#.utf8)
    line.append(contentsOf: (seconds.isFinite ? "\(seconds)" : "0").utf8)
    line.append(contentsOf: #","payload":"#.utf8)
    line.append(contentsOf: payload)
    line.append(contentsOf: "}\n".utf8)
    return line
  }

  /// The members of a line besides its payload.
  private struct Header: Decodable {
    let tag: String
    let time: Double
  }

  /// Decodes line number `number` (its bytes without the newline).
  static func decode(
    _ line: [UInt8], number: Int, registry: ActionRegistry
  ) throws(ActionReplayError) -> RecordedAction {
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: Data(line))
    } catch {
      throw .malformedLine(line: number, reason: describeCodingError(error))
    }
    do {
      let action = try registry.decode(tag: header.tag, payloadMemberOf: line)
      return RecordedAction(
        line: number, tag: header.tag, time: Date(timeIntervalSince1970: header.time),
        action: action)
    } catch {
      throw .badAction(line: number, error)
    }
  }

  /// Appends `text` as a JSON string literal.
  private static func appendJSONString(_ text: String, to bytes: inout [UInt8]) {
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case 0..<0x20:
        bytes.append(contentsOf: #"\u00"#.utf8)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xf)])
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
