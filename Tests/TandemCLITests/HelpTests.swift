import TandemCLI
import Testing

@Suite("Help of the tandem commands")
struct HelpTests {
  static let commands: [(String, CommandHelp, [String])] = [
    ("watch", .watch, ["--leader", "--path", "--json", "--count", "--exit-on-loss", "--timeout"]),
    ("snapshot", .snapshot, ["--leader", "--path", "--json", "--timeout"]),
    ("dispatch", .dispatch, ["--leader", "--type", "--json", "--timeout"]),
    ("stats", .stats, ["--leader", "--json", "--max-lag", "--timeout"]),
    ("raw", .raw, ["--leader", "FRAME", "--timeout"]),
  ]

  @Test(arguments: commands.map(\.0))
  func everyOptionIsDocumented(_ name: String) {
    let (_, help, options) = Self.commands.first { $0.0 == name }!
    for option in options {
      #expect(help.usage.contains(option), "\(name) --help does not mention \(option)")
    }
    #expect(!help.summary.isEmpty && help.summary.count <= 90)
  }

  @Test func failoverIsDocumentedWithItsOwnExitStatuses() {
    let help = CommandHelp.failover
    for option in ["--leader", "--timeout-ms", "--timeout", "--key", "--leader-key"] {
      #expect(help.usage.contains(option), "failover --help does not mention \(option)")
    }
    #expect(!help.summary.isEmpty && help.summary.count <= 90)
    for status in ["0", "1", "64", "69", "74", "76", "77"] {
      #expect(help.usage.contains("\n  \(status) "), "failover --help lacks exit status \(status)")
    }
    // It hands over only between standby leaders: no action, no state path.
    for status in ["65", "66"] { #expect(!help.usage.contains("\n  \(status) ")) }
    #expect(help.usage.contains("nothing\n      was lost"))
  }

  @Test(arguments: commands.map(\.0))
  func everyExitStatusIsDocumented(_ name: String) {
    let (_, help, _) = Self.commands.first { $0.0 == name }!
    for status in ["0", "1", "64", "65", "66", "69", "74", "76"] {
      #expect(help.usage.contains("\n  \(status) "), "\(name) --help lacks exit status \(status)")
    }
  }
}
