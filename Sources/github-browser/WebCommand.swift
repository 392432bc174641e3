import CommandLineKit
import GitHubBrowser
import MicroHTTP
import TandemMetrics
import TandemSync

/// `github-browser web`: serves the page, the JSON API and the event stream from a replica.
let webCommand = Command(
  name: "web",
  summary: "Run a web front end: a replica of the state served as a live page and a JSON API.",
  usage: """
    --leader ENDPOINT [--port P] [--host ADDRESS] [--metrics HOST:PORT]

    Prints its URL on the first line of standard output, then serves until SIGINT or SIGTERM.

    Options:
      --leader ENDPOINT   the leader's control endpoint (as `github-browser leader` printed it)
    \(SecurityOptions.followerHelp)
      --port P            the port to listen on; 0 (the default) picks a free one
      --host ADDRESS      the address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
      --metrics HOST:PORT serve Prometheus metrics at http://HOST:PORT/metrics (port 0:
                          a free one; the log says which)

    Exit status: 0 after a clean stop, 64 on a usage error, 69 when the leader does not answer
    or a port cannot be bound, 74 when standard output cannot be written (it then stops at
    once).
    """,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let leader = try arguments.required("leader")
    let security = try followerSecurity(&arguments)
    let port = try arguments.integer("port", default: 0, in: 0...65535)
    let host = arguments.option("host") ?? "127.0.0.1"
    let metricsAt = try arguments.option(
      "metrics", expected: MetricsAddress.expected, MetricsAddress.init)
    try arguments.finish()

    let follower = try joinLeader(leader, security: security)
    let web: WebFrontEnd
    do {
      web = try WebFrontEnd(
        follower: follower, server: HTTPServer.Configuration(host: host, port: port))
    } catch {
      try? blockingAsync { await follower.stop() }
      throw CommandFailure(.unavailable, "cannot serve on \(host):\(port): \(error)")
    }
    let metrics: MetricsServer?
    do {
      metrics = try unavailable {
        try MetricsServer.start(serving: [web.metrics], at: metricsAt, label: "github-web")
      }
      try writeLine(web.url)
    } catch {
      web.stop()
      try? blockingAsync { await follower.stop() }
      throw error
    }
    let signal = TerminationSignals.wait()
    TandemLogger(label: "github-web").info("signal \(signal): stopping")
    metrics?.stop()
    web.stop()
    try blockingAsync { await follower.stop() }
  })
