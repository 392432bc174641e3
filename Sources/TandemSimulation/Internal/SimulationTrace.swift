/// The last lines of a run's trace, for a violation's report, and a digest of all of them, so
/// that two runs of one seed can be compared.
struct SimulationTrace {
  var length = 60
  var printsLines = false
  private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325
  private var lines: [String] = []
  private var next = 0

  mutating func append(_ line: String) {
    if printsLines { print(line) }
    for byte in line.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    if lines.count < length {
      lines.append(line)
    } else {
      lines[next] = line
    }
    next = (next + 1) % length
  }

  /// The lines kept, oldest first.
  var recent: [String] {
    guard lines.count == length else { return lines }
    return Array(lines[next...] + lines[..<next])
  }
}
