import StatePatch
import TandemProtocol

/// The simulated application's state: how many actions each client id got applied, and the
/// total. An action applied twice or lost shows in the tallies as well as in the history.
struct TallyState: Codable, Equatable, Sendable {
  var total: UInt64 = 0
  var tally: [String: UInt64] = [:]

  /// The canonical JSON of the state, and its hash (what heartbeats and snapshots carry).
  func canonical() -> (document: Frame, hash: UInt64) {
    var encoder = StateEncoder()
    // A value of integers and strings always encodes.
    let document = try! encoder.encode(self).canonicalBytes()
    return (document, JSONValue.fnv1a(document))
  }
}

/// What a simulated action carries: the process that queued it and that process's own count,
/// so that the history tells actions apart whoever owns their client id.
struct ActionMark: Hashable, Sendable, CustomStringConvertible {
  var process: Int
  var serial: UInt64

  var payload: Frame { Frame(utf8: "\(process):\(serial)") }

  init(process: Int, serial: UInt64) {
    self.process = process
    self.serial = serial
  }

  init?(payload: Frame) {
    let parts = String(decoding: payload, as: UTF8.self).split(separator: ":")
    guard parts.count == 2, let process = Int(parts[0]), let serial = UInt64(parts[1]) else {
      return nil
    }
    self.init(process: process, serial: serial)
  }

  var description: String { "p\(process).\(serial)" }
}
