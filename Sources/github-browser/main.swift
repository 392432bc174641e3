import CommandLineKit
import GitHubBrowser
import TandemProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// SIGINT and SIGTERM are blocked before any thread starts, so every thread inherits the mask
// and the main thread alone takes them with sigwait (see `TerminationSignals.wait()`).
TerminationSignals.block()

let githubBrowser = CommandGroup(
  name: "github-browser",
  summary: "The GitHub browser example: processes sharing one Tandem state.",
  commands: [leaderCommand, workerCommand, webCommand, fixtureAPICommand],
  schema: {
    ApplicationSchema(BrowserState.self, registry: browserRegistry, version: browserSchemaVersion)
      .json.canonicalText
  }
)

exit(githubBrowser.run(Array(CommandLine.arguments.dropFirst())).rawValue)
