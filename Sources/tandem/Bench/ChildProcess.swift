import Foundation

/// This executable started again as a helper process of a benchmark (a peer, a follower), with
/// its standard output read line by line.
///
/// No helper outlives its benchmark: the benchmark calls ``terminateOnSignal()`` before it starts
/// any, and each helper calls ``endWithParent(_:)`` first (see ChildProcess+Lifetime.swift).
struct ChildProcess {
  private let process: Process
  private let output: FileHandle
  private let name: String

  /// Starts this executable with `arguments` (and the hidden `--parent-pid` option that
  /// ``endWithParent(_:)`` reads).
  init(_ name: String, arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executablePath)
    process.arguments = arguments + [Self.parentOption, String(getpid())]
    let pipe = Pipe()
    process.standardOutput = pipe
    try Self.launch(process)
    self.process = process
    self.output = pipe.fileHandleForReading
    self.name = name
  }

  /// Whether the process has exited with a status other than 0 (a failure to report at once,
  /// rather than waiting for work it will never do).
  var hasFailed: Bool { !process.isRunning && process.terminationStatus != 0 }

  /// Everything the process printed, once it has exited; fails unless it exited with status 0.
  func finish() throws -> String {
    let data = output.readDataToEndOfFile()
    process.waitUntilExit()
    Self.forget(process)
    guard process.terminationStatus == 0 else {
      throw ChildProcessFailed(name: name, status: process.terminationStatus)
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Sends `signal` to the process (unless it has exited) and waits until it has exited,
  /// whatever its status: a helper the benchmark kills on purpose, or ends once done with it.
  func end(by signal: Int32) {
    if process.isRunning { kill(process.processIdentifier, signal) }
    process.waitUntilExit()
    Self.forget(process)
    try? output.close()
  }

  /// The path of the running executable.
  static var executablePath: String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    return CommandLine.arguments[0]
  }
}

/// A benchmark's helper process failed.
struct ChildProcessFailed: Error, CustomStringConvertible {
  var name: String
  var status: Int32
  var description: String { "helper process '\(name)' exited with status \(status)" }
}
