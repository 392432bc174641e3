import Foundation
import TandemJournal

#if canImport(Glibc)
  import Glibc
#endif

/// A private PostgreSQL cluster for the tests of one run: started at the first use, listening
/// only on a Unix socket in its own temporary directory, stopped and removed when the test
/// process exits. Each test asks for a database of its own with ``database()``.
///
/// PostgreSQL refuses to run as root, and the tests run as root here: the cluster is made and
/// run as the `postgres` user through `runuser`. A test run that cannot do that fails with
/// ``PostgresTestClusterError``, which says why; it does not skip. The cluster runs with
/// `fsync=off` unless ``syncsToDisk`` is set: the tests check Tandem's logic, not the disk.
public enum PostgresTestCluster {
  /// Where the running cluster listens: the socket directory and the port naming the socket.
  public struct Address: Sendable {
    /// The directory of the socket (libpq's `host`).
    public var directory: String
    /// The port (libpq's `port`): it names the socket file; nothing listens on TCP.
    public var port: Int
  }

  /// Whether the cluster syncs its commits to disk (`fsync=on`), as a production one does; off
  /// by default (the tests check Tandem's logic, not the disk). Set it before the first use:
  /// a benchmark measuring commits sets it.
  nonisolated(unsafe) public static var syncsToDisk = false

  /// The cluster of this run, started once.
  private static let started: Result<Address, PostgresTestClusterError> = Result {
    () throws(PostgresTestClusterError) in try start()
  }

  /// The cluster's address, starting it at the first call.
  public static func address() throws(PostgresTestClusterError) -> Address {
    try started.get()
  }

  /// A new empty database `t_<random>` on the run's cluster, as a libpq connection string.
  public static func database() throws -> String {
    let address = try address()
    let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let admin = try PostgresConnection(connectionString(address, database: "postgres"))
    try admin.exec("CREATE DATABASE \(name)")
    return connectionString(address, database: name)
  }

  /// The connection string of `database` on the cluster at `address`.
  public static func connectionString(_ address: Address, database: String) -> String {
    "host=\(address.directory) port=\(address.port) user=tandem dbname=\(database)"
  }

  /// The database of `connectionString` (as ``database()`` returns it) as a `postgres://` URL,
  /// which `--db` takes, with `password` in it when given: the cluster trusts every local
  /// connection and ignores it, which suits tests that check a password is never shown.
  public static func url(_ connectionString: String, password: String? = nil) -> String {
    var options: [Substring: Substring] = [:]
    for pair in connectionString.split(separator: " ") {
      guard let equals = pair.firstIndex(of: "=") else { continue }
      options[pair[..<equals]] = pair[pair.index(after: equals)...]
    }
    let user = (options["user"] ?? "tandem") + (password.map { ":" + $0 } ?? "")
    return "postgres://\(user)@/\(options["dbname"] ?? "postgres")"
      + "?host=\(options["host"] ?? "")&port=\(options["port"] ?? "")"
  }

  /// The directory of PostgreSQL's server programs (`initdb`, `pg_ctl`).
  static func binDirectory() throws(PostgresTestClusterError) -> String {
    let candidates = ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin"]
    guard let found = candidates.first(where: { access($0 + "/initdb", X_OK) == 0 }) else {
      throw .notInstalled(searched: candidates)
    }
    return found
  }

  private static func start() throws(PostgresTestClusterError) -> Address {
    guard getuid() == 0 else { throw .cannotRunAsPostgres(uid: getuid()) }
    guard let user = getpwnam("postgres") else { throw .cannotRunAsPostgres(uid: getuid()) }
    let bin = try binDirectory()
    var template = Array("/tmp/tandem-pg-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw .failed(step: "mkdtemp", output: "") }
    let directory = String(cString: made)
    chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
    stop = (directory, bin)
    atexit { PostgresTestCluster.stopAtExit() }
    try run(
      [bin + "/initdb", "-D", directory + "/data", "-A", "trust", "-U", "tandem", "--no-sync"],
      step: "initdb", directory: directory)
    // The socket lives in the cluster's own directory, so a port can only be taken by a
    // stale cluster of this same directory; still, try a few in case.
    var lastError = PostgresTestClusterError.failed(step: "pg_ctl start", output: "")
    for _ in 0..<5 {
      let port = Int.random(in: 30000..<60000)
      let options =
        "-k \(directory) -p \(port) -c listen_addresses='' -c fsync=\(syncsToDisk ? "on" : "off")"
        + " -c max_connections=200"
      do {
        try run(
          [
            bin + "/pg_ctl", "-D", directory + "/data", "-o", options, "-l",
            directory + "/log", "-w", "start",
          ], step: "pg_ctl start", directory: directory)
        return Address(directory: directory, port: port)
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  /// Runs `arguments` as the `postgres` user and waits; throws with its output on failure.
  /// The output goes to a file, not a pipe: the server `pg_ctl` starts would hold a pipe open.
  /// `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose exit notification
  /// does not come in the test process (the child stays a zombie).
  private static func run(
    _ arguments: [String], step: String, directory: String
  ) throws(PostgresTestClusterError) {
    let outputPath = directory + "/\(step.replacingOccurrences(of: " ", with: "-")).out"
    let argv = ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pid: pid_t = 0
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard spawned == 0 else {
      throw .failed(step: step, output: "cannot run runuser: errno \(spawned)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // Exited normally with status 0 (WIFEXITED and WEXITSTATUS, which Swift cannot import).
    guard status & 0x7f == 0 && (status >> 8) & 0xff == 0 else {
      let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
      throw .failed(step: step, output: output + log)
    }
  }

  /// The cluster to stop at exit: its directory and the server programs' directory.
  nonisolated(unsafe) private static var stop: (directory: String, bin: String)?

  private static func stopAtExit() {
    guard let (directory, bin) = stop else { return }
    _ = system(
      "/usr/sbin/runuser -u postgres -- \(bin)/pg_ctl -D \(directory)/data -m immediate -w stop "
        + ">/dev/null 2>&1; rm -rf \(directory)")
  }
}

/// Why the tests' PostgreSQL cluster could not start, with what to do.
public enum PostgresTestClusterError: Error, CustomStringConvertible {
  /// The tests do not run as root, so `runuser -u postgres` is refused.
  case cannotRunAsPostgres(uid: uid_t)
  /// PostgreSQL's server programs are not installed.
  case notInstalled(searched: [String])
  /// `initdb` or `pg_ctl` failed.
  case failed(step: String, output: String)

  public var description: String {
    switch self {
    case .cannotRunAsPostgres(let uid):
      return "the PostgreSQL tests start a private cluster as the `postgres` user through "
        + "`runuser`, which needs root and a `postgres` user (the tests run as uid \(uid)): run "
        + "them as root where `scripts/bootstrap` installed PostgreSQL"
    case .notInstalled(let searched):
      return "no PostgreSQL server programs in \(searched.joined(separator: " or ")): run "
        + "`scripts/bootstrap` (it installs postgresql and libpq-dev)"
    case .failed(let step, let output):
      return "starting the tests' PostgreSQL cluster failed at \(step): \(output)"
    }
  }
}
