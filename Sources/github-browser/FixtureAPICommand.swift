import CommandLineKit
import GitHubBrowser
import MicroHTTP

/// `github-browser fixture-api`: serves the recorded GitHub API until SIGINT or SIGTERM.
let fixtureAPICommand = Command(
  name: "fixture-api",
  summary: "Serve recorded GitHub-shaped API responses on a local port.",
  usage: "[--port P] [--host ADDRESS] [--slow-delay-ms N]\n\n"
    + "  --port P            port to listen on; 0 (the default) picks a free one\n"
    + "  --host ADDRESS      address to bind (default 127.0.0.1)\n"
    + "  --slow-delay-ms N   how long the 'slowpoke' owner's answers wait (default 3000)\n\n"
    + "Prints the base URL on one line, then serves until SIGINT or SIGTERM.\n\n"
    + "Exit status: 0 after a clean stop, 64 on a usage error, 69 when the address cannot be\n"
    + "bound, 74 when standard output cannot be written (it then stops at once)."
) { words in
  var arguments = try CommandLineArguments(words)
  let port = try arguments.integer("port", default: 0, in: 0...65535)
  let host = arguments.option("host") ?? "127.0.0.1"
  let slowDelay = try arguments.integer("slow-delay-ms", default: 3000, in: 0...600_000)
  try arguments.finish()

  let fixture: FixtureAPI
  do {
    fixture = try FixtureAPI(
      configuration: FixtureAPI.Configuration(
        server: HTTPServer.Configuration(host: host, port: port),
        slowDelay: .milliseconds(slowDelay)))
  } catch {
    throw CommandFailure(.unavailable, "cannot serve on \(host):\(port): \(error)")
  }
  do {
    try writeLine(fixture.server.url)
  } catch {
    fixture.stop()
    throw error
  }
  let signal = TerminationSignals.wait()
  fixture.stop()
  printError("fixture-api: stopped (signal \(signal))")
}
