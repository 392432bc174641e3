import Foundation
import TandemSync

/// The CURVE keys of `tandem bench sync --curve`: a leader key pair, one client key pair (admin)
/// for every worker, and a key store holding it, in a temporary directory removed with it.
final class BenchmarkKeys: Sendable {
  let directory: String
  let leader: KeyFile
  private let clientFile: String

  init() throws {
    directory = NSTemporaryDirectory() + "tandem-bench-keys-\(UUID().uuidString)"
    try KeyStore.createDirectory(directory)
    leader = try KeyFile.generate(name: "bench-leader")
    let client = try KeyFile.generate(name: "bench-client")
    clientFile = directory + "/bench-client.secret"
    try client.write(to: clientFile)
    try KeyStore.add(client, role: .admin, to: directory + "/store")
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The leader's security.
  var leaderSecurity: LeaderSecurity {
    LeaderSecurity(key: leader, keyStore: directory + "/store")
  }

  /// What a worker process is given to connect with the client key.
  var workerArguments: [String] {
    ["--key", clientFile, "--leader-key", leader.publicKey.z85]
  }
}
