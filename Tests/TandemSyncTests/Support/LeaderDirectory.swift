import Foundation

@testable import TandemSync

/// A temporary directory for one test's leader: its journal and its ipc endpoints, whose socket
/// files outlive the sockets. It is removed with everything in it when the value goes away, at
/// the end of the test's scope, so a test run leaves no file in the temporary directory.
///
/// ```swift
/// let directory = try LeaderDirectory()
/// let control = directory.control
/// let leader = try await makeLeader { $0.control = control }
/// ```
struct LeaderDirectory: ~Copyable {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "tandem-leader-\(FollowerConfiguration.randomClientID())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  var journal: String { path + "/leader.journal" }
  /// An ipc endpoint for the leader's control socket, inside the directory.
  var control: String { "ipc://\(path)/control" }
  /// An ipc endpoint for the leader's updates socket, inside the directory.
  var updates: String { "ipc://\(path)/updates" }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
