import CommandLineKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let tandem = CommandGroup(
  name: "tandem",
  summary: "Tandem: one application state shared by many processes.",
  commands: [
    watchCommand, snapshotCommand, dispatchCommand, statsCommand, failoverCommand, rawCommand,
    journalCommand, schemaCommand, keygenCommand, keysCommand, benchCommand, simulateCommand,
  ]
)

exit(tandem.run(Array(CommandLine.arguments.dropFirst())).rawValue)
