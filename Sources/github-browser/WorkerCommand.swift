import CommandLineKit
import Foundation
import GitHubBrowser
import TandemMetrics
import TandemSync

/// `github-browser worker`: performs the requested loads against GitHub (or the fixture API).
let workerCommand = Command(
  name: "worker",
  summary: "Run a worker: claim requested loads, call the GitHub API, dispatch the results.",
  usage: """
    --leader ENDPOINT [--api-base URL] [--worker-id ID] [--concurrency N] [--lease-ms N]
    [--metrics HOST:PORT] [--state-dir DIR]

    The service's own token, if any, is read from the GITHUB_TOKEN environment variable; the
    tokens of users who signed in through a front end are read from DIR/sign-ins/. Tokens are
    sent to the API only and never enter the state, the journal or a log.

    Options:
      --leader ENDPOINT   the leader's control endpoint (as `github-browser leader` printed it),
                          or the endpoints of standby leaders separated by commas
    \(SecurityOptions.followerHelp)
      --api-base URL      the API root (default https://api.github.com; a fixture-api URL)
      --worker-id ID      the id this worker's claims carry (default HOST-PID)
      --concurrency N     loads of one account performed at once (default 4)
      --state-dir DIR     the service's state directory, shared with the front ends (sign-ins
                          in DIR/sign-ins)
      --lease-ms N        how long a claim lasts unless renewed (default 15000)
      --timeout-ms N      how long one request may take (default 15000)
      --metrics HOST:PORT serve Prometheus metrics at http://HOST:PORT/metrics (port 0:
                          a free one; the log says which)

    Prints "worker ID" on one line, then runs until SIGINT or SIGTERM. Exit status: 0 after a
    clean stop, 64 on a usage error, 69 when the leader does not answer or the metrics address
    cannot be bound, 74 when standard output cannot be written (it then stops at once).
    """,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let leader = try arguments.required("leader")
    let security = try followerSecurity(&arguments)
    let base = arguments.option("api-base") ?? "https://api.github.com"
    guard let baseURL = URL(string: base), ["http", "https"].contains(baseURL.scheme),
      baseURL.host?.isEmpty == false
    else {
      throw UsageError(
        "--api-base takes an http(s) URL with a host, such as https://api.github.com, not '\(base)'"
      )
    }
    let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init)
    let workerID =
      arguments.option("worker-id")
      ?? "\(host ?? "worker")-\(ProcessInfo.processInfo.processIdentifier)"
    guard !workerID.isEmpty else {
      throw UsageError("--worker-id is empty: give an id unique among the service's workers")
    }
    let concurrency = try arguments.integer("concurrency", default: 4, in: 1...64)
    let lease = try arguments.integer("lease-ms", default: 15_000, in: 300...600_000)
    let timeout = try arguments.integer("timeout-ms", default: 15_000, in: 100...600_000)
    let metricsAt = try arguments.option(
      "metrics", expected: MetricsAddress.expected, MetricsAddress.init)
    let credentials = try arguments.option("state-dir").map(signInStore(in:))
    try arguments.finish()

    let token = ProcessInfo.processInfo.environment["GITHUB_TOKEN"].flatMap {
      $0.isEmpty ? nil : $0
    }
    let client = GitHubClient(
      configuration: GitHubClient.Configuration(
        baseURL: baseURL, token: token, timeout: Double(timeout) / 1000))
    let follower = try joinLeader(leader, security: security)
    let worker = BrowserWorker(
      follower: follower, client: client, credentials: credentials,
      configuration: BrowserWorker.Configuration(
        workerID: workerID, lease: .milliseconds(lease), concurrency: concurrency))
    let metrics: MetricsServer?
    do {
      metrics = try unavailable {
        try MetricsServer.start(serving: [worker.metrics], at: metricsAt, label: "github-worker")
      }
    } catch {
      try? blockingAsync { await follower.stop() }
      throw error
    }
    let log = TandemLogger(label: "github-worker")
    log.info("worker \(workerID) on \(leader), API \(client.configuration)")
    do {
      try writeLine("worker \(workerID)")
    } catch {
      try? blockingAsync { await follower.stop() }
      throw error
    }
    let running = Task { await worker.run() }
    let signal = TerminationSignals.wait()
    log.info("signal \(signal): stopping after \(worker.performedLoads.count) loads")
    running.cancel()
    metrics?.stop()
    try blockingAsync {
      await running.value
      await follower.stop()
    }
  })
