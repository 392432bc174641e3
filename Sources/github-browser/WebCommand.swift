import CommandLineKit
import Foundation
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
    [--state-dir DIR --github-client-id ID [--github-web URL] [--api-base URL]
    [--callback-url URL]]

    Prints its URL on the first line of standard output, then serves until SIGINT or SIGTERM.

    With --github-client-id, every browser signs in with GitHub's OAuth web flow and sees its
    own user's repositories and bookmarks; the OAuth app's secret is read from the
    GITHUB_CLIENT_SECRET environment variable. Each sign-in's token is kept in
    DIR/sign-ins/ (a 0600 file in a 0700 directory, readable by the service's user only), which
    the workers read too; nothing else holds it. Without it, everyone shares the workers'
    GITHUB_TOKEN.

    Options:
      --leader ENDPOINT   the leader's control endpoint (as `github-browser leader` printed it),
                          or the endpoints of standby leaders separated by commas
    \(SecurityOptions.followerHelp)
      --port P            the port to listen on; 0 (the default) picks a free one
      --host ADDRESS      the address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
      --metrics HOST:PORT serve Prometheus metrics at http://HOST:PORT/metrics (port 0:
                          a free one; the log says which)
      --state-dir DIR     the service's state directory (sign-ins in DIR/sign-ins)
      --github-client-id ID  the OAuth app's client id: turns sign-in on
      --github-web URL    GitHub's sign-in pages (default https://github.com; a fixture-api URL)
      --api-base URL      the API root for "who signed in" (default https://api.github.com)
      --callback-url URL  the callback registered with the OAuth app (default
                          http://HOST/api/auth/callback from the request's Host header)

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
    let stateDirectory = arguments.option("state-dir")
    let clientID = arguments.option("github-client-id")
    let web = try httpURL(arguments.option("github-web") ?? "https://github.com", "--github-web")
    let api = try httpURL(arguments.option("api-base") ?? "https://api.github.com", "--api-base")
    let callback = try arguments.option("callback-url").map { try httpURL($0, "--callback-url") }
    try arguments.finish()

    var oauth: OAuthConfiguration?
    var credentials: CredentialStore?
    if let clientID {
      guard let stateDirectory else {
        throw UsageError("--github-client-id needs --state-dir DIR, where sign-ins are kept")
      }
      guard let secret = ProcessInfo.processInfo.environment["GITHUB_CLIENT_SECRET"],
        !secret.isEmpty
      else {
        throw UsageError(
          "--github-client-id needs the OAuth app's secret in GITHUB_CLIENT_SECRET")
      }
      oauth = OAuthConfiguration(
        clientID: clientID, clientSecret: secret, webBaseURL: web, apiBaseURL: api,
        callbackURL: callback)
      credentials = try signInStore(in: stateDirectory)
    }

    let follower = try joinLeader(leader, security: security)
    let frontEnd: WebFrontEnd
    do {
      frontEnd = try WebFrontEnd(
        follower: follower, server: HTTPServer.Configuration(host: host, port: port),
        signIn: oauth, credentials: credentials)
    } catch {
      try? blockingAsync { await follower.stop() }
      throw CommandFailure(.unavailable, "cannot serve on \(host):\(port): \(error)")
    }
    let metrics: MetricsServer?
    do {
      metrics = try unavailable {
        try MetricsServer.start(serving: [frontEnd.metrics], at: metricsAt, label: "github-web")
      }
      try writeLine(frontEnd.url)
    } catch {
      frontEnd.stop()
      try? blockingAsync { await follower.stop() }
      throw error
    }
    let signal = TerminationSignals.wait()
    TandemLogger(label: "github-web").info("signal \(signal): stopping")
    metrics?.stop()
    frontEnd.stop()
    try blockingAsync { await follower.stop() }
  })
