import CommandLineKit
import Foundation
import Testing

/// What every executable of the package has in common: `--version`, suggestions for a
/// misspelled command, short usage errors, and exit statuses from sysexits, each documented.
@Suite("Conventions of the executables")
struct CommandConventionTests {
  @Test(arguments: ["tandem", "counter", "github-browser"])
  func versionIsThePackagesVersion(_ executable: String) async throws {
    let run = try await TandemProcess.run(["--version"], executable: executable)
    #expect(run.status == 0)
    #expect(run.output == "\(executable) \(PackageVersion.current)\n")
  }

  @Test(arguments: [
    ("tandem", ["stat"], "tandem: unknown command 'stat' (did you mean 'stats'?)"),
    ("tandem", ["journal", "verfy"], "tandem journal: unknown command 'verfy' (did you mean"),
    ("counter", ["folower"], "counter: unknown command 'folower' (did you mean 'follower'?)"),
    ("github-browser", ["wrker"], "unknown command 'wrker' (did you mean 'worker'?)"),
  ])
  func aMisspelledCommandIsNamedWithItsLikelyMeaning(
    executable: String, arguments: [String], message: String
  ) async throws {
    let run = try await TandemProcess.run(arguments, executable: executable)
    #expect(run.status == 64)
    #expect(run.error.contains(message))
    #expect(run.error.split(separator: "\n").count == 3)
  }

  /// A usage error is three lines: what was wrong, the one-line usage, and how to get help.
  @Test(arguments: [
    ("tandem", ["snapshot", "--leader", "tcp://127.0.0.1:1", "--pth", "/a"]),
    ("tandem", ["bench", "store", "--only", ","]),
    ("counter", ["leader", "--hwm", "0"]),
    ("github-browser", ["web", "--nope", "1"]),
  ])
  func aUsageErrorIsShort(executable: String, arguments: [String]) async throws {
    let run = try await TandemProcess.run(arguments, executable: executable)
    #expect(run.status == 64)
    let lines = run.error.split(separator: "\n")
    #expect(lines.count == 3, "\(run.error)")
    #expect(lines.count > 1 && lines[1].hasPrefix("Usage: \(executable) "))
    #expect(lines.last?.hasPrefix("Run '\(executable) ") == true)
    #expect(lines.last?.hasSuffix(" --help' for its options and exit statuses.") == true)
  }

  @Test func aMissingJournalEndsWithStatus66() async throws {
    let missing = NSTemporaryDirectory() + "tandem-no-journal-" + UUID().uuidString
    for command in ["inspect", "verify", "compact"] {
      let run = try await TandemProcess.run(["journal", command, "--db", missing])
      #expect(run.status == 66)
      #expect(
        run.error == "tandem journal \(command): no journal at \(missing): check the --db path\n")
      #expect(!FileManager.default.fileExists(atPath: missing))
    }
  }

  /// Every command's help lists its exit statuses.
  @Test(arguments: [
    ("tandem", ["watch"]), ("tandem", ["stats"]), ("tandem", ["failover"]),
    ("tandem", ["journal", "inspect"]), ("tandem", ["journal", "backup"]),
    ("tandem", ["journal", "restore"]), ("tandem", ["journal", "compact"]),
    ("tandem", ["bench", "sync"]), ("tandem", ["bench", "failover"]),
    ("counter", ["leader"]), ("counter", ["follower"]), ("github-browser", ["leader"]),
    ("github-browser", ["web"]), ("github-browser", ["worker"]),
    ("github-browser", ["fixture-api"]),
  ])
  func everyHelpDocumentsTheExitStatuses(executable: String, command: [String]) async throws {
    let run = try await TandemProcess.run(command + ["--help"], executable: executable)
    #expect(run.status == 0)
    #expect(run.output.contains("Exit status"), "\(executable) \(command) --help")
    #expect(run.output.contains("64"))
  }
}
