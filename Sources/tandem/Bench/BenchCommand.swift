import CommandLineKit

/// `tandem bench <name>`: the project's benchmarks, each printing its figures.
/// Run them in release mode: `swift run -c release tandem bench store`.
let benchmarks = CommandGroup(
  name: "tandem bench",
  summary: "Benchmarks; run with `swift run -c release tandem bench <name>`.",
  commands: [
    storeBenchmark,
    jsonBenchmark,
    patchBenchmark,
    zmqBenchmark,
    syncBenchmark,
    journalStoreBenchmark,
    journalBenchmark,
  ]
)

let benchCommand = Command(
  name: "bench",
  summary: "Run a benchmark and print its figures",
  usage: "<name> [--runs N]\n\nBenchmarks:\n"
    + benchmarks.commands.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n"),
  run: { arguments in
    let status = benchmarks.run(arguments)
    guard status == .success else { throw BenchmarkFailed(status: status) }
  }
)

/// A benchmark subcommand ended with a non-zero status (its message is already printed).
struct BenchmarkFailed: Error, CustomStringConvertible {
  var status: ExitStatus
  var description: String { "benchmark ended with status \(status.rawValue)" }
}
