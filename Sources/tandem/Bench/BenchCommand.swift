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
  subcommands: benchmarks
)
