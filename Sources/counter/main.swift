import CommandLineKit
import CounterExample
import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// SIGINT and SIGTERM are handled by a thread that waits for them (see `Signals`); block them
// before any other thread starts, so every thread inherits the mask.
TerminationSignals.block()

let counter = CommandGroup(
  name: "counter",
  summary: "ReSwift's CounterExample across processes: one leader, any number of followers.",
  commands: [leaderCommand, followerCommand],
  schema: {
    ApplicationSchema(CounterState.self, registry: counterRegistry, version: "1").json
      .canonicalText
  }
)

exit(counter.run(Array(CommandLine.arguments.dropFirst())).rawValue)
