import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run of an executable of the package (`tandem`, `counter`, `github-browser`), which
/// `swift build --build-tests` and `swift test` build beside the tests: its exit status and what
/// it wrote.
struct TandemProcess {
  /// The exit status, or 128 + the signal's number for a process ended by a signal.
  var status: Int32
  /// Standard output (empty when it went elsewhere).
  var output: String
  /// Standard error.
  var error: String

  /// Runs `executable` (`tandem` unless told) with `arguments`, standard input at end of file,
  /// until it exits; it is killed (and an issue recorded) after `limit`. Standard output goes to
  /// `standardOutput` when given, else it is read into ``output``. `environment` adds to (or
  /// replaces in) the test process's environment.
  static func run(
    _ arguments: [String], executable: String = "tandem", standardOutput: FileHandle? = nil,
    environment: [String: String] = [:], limit: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> TandemProcess {
    let directory = NSTemporaryDirectory() + "tandem-run-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (outputFile, errorFile) = (directory + "/output", directory + "/error")
    for file in [outputFile, errorFile] { try Data().write(to: URL(fileURLWithPath: file)) }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: try path(of: executable))
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput =
      try standardOutput ?? FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
    try process.run()
    let deadline = ContinuousClock.now + limit
    while process.isRunning && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    if process.isRunning {
      // SIGKILL: the test's threads block SIGTERM, and the process inherits what they block.
      kill(process.processIdentifier, SIGKILL)
      Issue.record(
        "\(executable) \(arguments.joined(separator: " ")) ran longer than \(limit)",
        sourceLocation: sourceLocation)
    }
    process.waitUntilExit()
    let status =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return TandemProcess(
      status: status, output: try String(contentsOfFile: outputFile, encoding: .utf8),
      error: try String(contentsOfFile: errorFile, encoding: .utf8))
  }

  /// The path of the executable `name`: in the directory of the test executable (Linux), or of
  /// the test bundle (macOS).
  static func path(of name: String) throws -> String {
    #if os(Linux)
      let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      let directory = URL(fileURLWithPath: tests).deletingLastPathComponent()
    #else
      let bundle = try #require(Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") })
      let directory = bundle.bundleURL.deletingLastPathComponent()
    #endif
    let path = directory.appendingPathComponent(name).path
    try #require(
      FileManager.default.isExecutableFile(atPath: path),
      "no \(name) executable at \(path): build it with `swift build --build-tests`")
    return path
  }
}
