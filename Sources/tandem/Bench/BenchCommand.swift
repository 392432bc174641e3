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
    failoverBenchmark,
  ],
  exitStatuses: """
    Exit status:
      0   the benchmark ran and printed its figures
      1   the benchmark failed (the message says which step)
      64  the command was called wrongly (see the usage above)
      74  the output could not be written (e.g. a full disk)
    """
)

let benchCommand = Command(
  name: "bench",
  summary: "Run a benchmark and print its figures",
  subcommands: benchmarks
)
