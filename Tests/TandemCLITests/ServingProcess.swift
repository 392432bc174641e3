import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An executable of the package that serves until it is killed (`counter leader`,
/// `github-browser leader`), started in the background and read up to the first line it
/// prints: where it serves.
final class ServingProcess {
  private let process = Process()
  private let directory = NSTemporaryDirectory() + "tandem-serve-" + UUID().uuidString
  /// The first line of its standard output, such as a leader's control endpoint.
  private(set) var firstLine = ""
  private var started = false

  /// Starts `executable` with `arguments` and waits (polling, up to `limit`) for the first line
  /// of its output.
  init(
    _ executable: String, _ arguments: [String], limit: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let output = directory + "/output"
    try Data().write(to: URL(fileURLWithPath: output))
    process.executableURL = URL(fileURLWithPath: try TandemProcess.path(of: executable))
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardError = FileHandle.nullDevice
    try process.run()
    started = true
    let deadline = ContinuousClock.now + limit
    while process.isRunning && ContinuousClock.now < deadline {
      let text = try String(contentsOfFile: output, encoding: .utf8)
      if let end = text.firstIndex(of: "\n") {
        firstLine = String(text[..<end])
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    stop()
    Issue.record(
      "\(executable) \(arguments.joined(separator: " ")) printed no line within \(limit)",
      sourceLocation: sourceLocation)
  }

  /// Kills the process (SIGKILL: it inherits the test's blocked SIGTERM) and waits for it.
  func stop() {
    if started {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  // deinit runs too when the initializer throws: stop() kills only a process that started.
  deinit { stop() }
}
