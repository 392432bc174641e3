#if os(Linux)
  import Foundation
  import Testing

  /// Kills `process`, a child of this one, and waits for it.
  func end(_ process: pid_t) {
    kill(process, SIGKILL)
    waitpid(process, nil, 0)
  }

  /// Starts the `tandem` executable beside the tests with `arguments` as a shell would: with
  /// no signal blocked and SIGINT and SIGTERM at their default actions (a thread of the test
  /// blocks nearly every signal, which a process it starts would inherit); standard output and
  /// standard error to the files `output` and `error` (discarded by default), and `TMPDIR` set
  /// to `temporaryDirectory`.
  func startTandem(
    _ arguments: [String], temporaryDirectory: String, output: String = "/dev/null",
    error: String = "/dev/null"
  ) throws -> pid_t {
    let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let tandem = URL(fileURLWithPath: tests).deletingLastPathComponent()
      .appendingPathComponent("tandem").path
    try #require(
      FileManager.default.isExecutableFile(atPath: tandem),
      "no tandem executable at \(tandem): build it with `swift build --build-tests`")

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var termination = sigset_t()
    sigemptyset(&termination)
    sigaddset(&termination, SIGINT)
    sigaddset(&termination, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &termination)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var files = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&files)
    defer { posix_spawn_file_actions_destroy(&files) }
    posix_spawn_file_actions_addopen(
      &files, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(
      &files, STDERR_FILENO, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let argv = ([tandem] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporaryDirectory
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    var process: pid_t = 0
    let failure = posix_spawn(&process, tandem, &files, &attributes, argv, envp)
    try #require(failure == 0, "posix_spawn \(tandem): errno \(failure)")
    return process
  }

  /// What `condition` returns once it is not nil, checked every 10 ms for at most `limit`; nil
  /// if it never is.
  func poll<Value>(
    for limit: Duration, _ condition: () -> Value?
  ) async -> Value? {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let value = condition() { return value }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }
#endif
