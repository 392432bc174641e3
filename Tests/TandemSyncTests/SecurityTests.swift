import Foundation
import Synchronization
import Testing

@testable import TandemJournal
@testable import TandemProtocol
@testable import TandemSync

/// A leader with CURVE keys, followed over real tcp sockets: who may join, follow and dispatch,
/// and what happens when a key is revoked.
@Suite("Security: CURVE, keys and roles", .timeLimit(.minutes(2)))
struct SecurityTests {
  private func keyedLeader(
    _ keys: KeyFixture, configure: (inout LeaderConfiguration) -> Void = { _ in }
  ) async throws -> Leader<TestState> {
    try await makeLeader { configuration in
      configuration.security = keys.leaderSecurity
      configure(&configuration)
    }
  }

  private func joinFailure(
    _ leader: Leader<TestState>, _ configure: @escaping (inout FollowerConfiguration) -> Void
  ) async -> FollowerError? {
    do {
      let follower = try await makeFollower(leader) { configure(&$0) }
      await follower.stop()
      return nil
    } catch let error as FollowerError {
      return error
    } catch {
      Issue.record("joining failed with \(error)")
      return nil
    }
  }

  @Test("a follower without keys cannot join a keyed leader")
  func noKeys() async throws {
    let keys = try KeyFixture()
    let leader = try await keyedLeader(keys)
    let failure = await joinFailure(leader) { _ in }
    guard case .authenticationFailed(let reason)? = failure else {
      Issue.record("expected authenticationFailed, got \(String(describing: failure))")
      return
    }
    #expect(reason.contains("requires CURVE keys"))
    await leader.stop()
  }

  @Test("a follower with a key the store does not hold cannot join")
  func unknownKey() async throws {
    let keys = try KeyFixture()
    try keys.key("stranger", authorized: false)
    let leader = try await keyedLeader(keys)
    let failure = await joinFailure(leader) { $0.security = keys.follower("stranger") }
    guard case .authenticationFailed(let reason)? = failure else {
      Issue.record("expected authenticationFailed, got \(String(describing: failure))")
      return
    }
    #expect(reason.contains("does not hold the key stranger"))
    let statistics = try await leader.statistics()
    #expect(statistics.security?.handshakeFailures["unknown-key", default: 0] ?? 0 >= 1)
    await leader.stop()
  }

  @Test("a follower pinning another leader key cannot join")
  func wrongLeaderKey() async throws {
    let keys = try KeyFixture()
    try keys.key("alice")
    let leader = try await keyedLeader(keys)
    let impostor = try KeyFile.generate(name: "impostor")
    let failure = await joinFailure(leader) {
      $0.security = FollowerSecurity(key: keys.keys["alice"]!, leaderKey: impostor.publicKey)
    }
    guard case .authenticationFailed? = failure else {
      Issue.record("expected authenticationFailed, got \(String(describing: failure))")
      return
    }
    await leader.stop()
  }

  @Test("a read key follows but cannot dispatch; the refusal uses its number up")
  func readKey() async throws {
    let keys = try KeyFixture()
    try keys.key("reader", role: .read)
    try keys.key("writer", role: .write)
    let leader = try await keyedLeader(keys)
    let reader = try await makeFollower(leader) { $0.security = keys.follower("reader") }
    let writer = try await makeFollower(leader) { $0.security = keys.follower("writer") }
    let refused = try reader.send(Increment(by: 5))
    await #expect(throws: FollowerError.self) { _ = try await refused.applied() }
    guard case .failure(.rejected(let rejection))? = refused.outcome else {
      Issue.record("expected a rejection, got \(String(describing: refused.outcome))")
      return
    }
    #expect(rejection.code == .unauthorized)
    // The reader still follows what others dispatch.
    let applied = try await writer.send(Increment(by: 2)).applied()
    await eventually("the reader shows the writer's action") {
      reader.store.state?.counter == 2
    }
    #expect(applied == 1)
    await reader.stop()
    await writer.stop()
    await leader.stop()
  }

  @Test("a write key limited to some tags cannot dispatch others")
  func taggedKey() async throws {
    let keys = try KeyFixture()
    try keys.key("titler", role: .write, tags: ["test.title"])
    let leader = try await keyedLeader(keys)
    let follower = try await makeFollower(leader) { $0.security = keys.follower("titler") }
    _ = try await follower.send(SetTitle(title: "allowed")).applied()
    let refused = try follower.send(Increment())
    await #expect(throws: FollowerError.self) { _ = try await refused.applied() }
    guard case .failure(.rejected(let rejection))? = refused.outcome else {
      Issue.record("expected a rejection")
      return
    }
    #expect(rejection.code == .unauthorized)
    #expect(rejection.message.contains("test.increment"))
    #expect(leader.store.state?.counter == 0)
    #expect(leader.store.state?.title == "allowed")
    await follower.stop()
    await leader.stop()
  }

  @Test("a key cannot use another key's client id; the same key can (a restart)")
  func clientIDBoundToKey() async throws {
    let keys = try KeyFixture()
    try keys.key("alice")
    try keys.key("bob")
    let leader = try await keyedLeader(keys)
    let alice = try await makeFollower(leader) {
      $0.clientID = "shared"
      $0.security = keys.follower("alice")
    }
    _ = try await alice.send(Increment()).applied()
    let failure = await joinFailure(leader) {
      $0.clientID = "shared"
      $0.security = keys.follower("bob")
    }
    guard case .refused(.unauthorized, let message)? = failure else {
      Issue.record("expected refused(unauthorized), got \(String(describing: failure))")
      return
    }
    #expect(message.contains("belongs to another key (alice)"))
    await alice.stop()
    let restarted = try await makeFollower(leader) {
      $0.clientID = "shared"
      $0.security = keys.follower("alice")
    }
    _ = try await restarted.send(Increment()).applied()
    #expect(leader.store.state?.counter == 2)
    await restarted.stop()
    await leader.stop()
  }

  @Test("a revoked key's open connection is cut at the reload and it cannot come back")
  func revokedKey() async throws {
    let keys = try KeyFixture()
    try keys.key("alice")
    try keys.key("bob")
    let leader = try await keyedLeader(keys)
    let alice = try await makeFollower(leader) { $0.security = keys.follower("alice") }
    let bob = try await makeFollower(leader) { $0.security = keys.follower("bob") }
    _ = try await bob.send(Increment()).applied()
    try KeyStore.revoke(name: "bob", in: keys.store)
    let reloaded = try await leader.reloadKeys()
    #expect(reloaded.removed == ["bob"])
    let cutAt = ContinuousClock.now
    await eventually("bob's follower stops", timeout: .seconds(5)) { bob.stopReason != nil }
    #expect(ContinuousClock.now - cutAt < .seconds(2))
    // Cut, it fails the handshake again; a request that reached the leader between the reload
    // and the cut was refused as unauthorized. Either way it stops for good.
    switch bob.stopReason {
    case .authenticationFailed?, .refused(.unauthorized, _)?: break
    default: Issue.record("expected a refusal, got \(String(describing: bob.stopReason))")
    }
    // The others reconnect and go on.
    _ = try await alice.send(Increment()).applied()
    #expect(leader.store.state?.counter == 2)
    let failure = await joinFailure(leader) { $0.security = keys.follower("bob") }
    guard case .authenticationFailed? = failure else {
      Issue.record("expected authenticationFailed, got \(String(describing: failure))")
      return
    }
    await alice.stop()
    await bob.stop()
    await leader.stop()
  }

  @Test("only an admin key may ask the leader to hand its lease over")
  func stepDownNeedsAnAdminKey() async throws {
    let keys = try KeyFixture()
    try keys.key("ops", role: .admin)
    try keys.key("writer", role: .write)
    let calls = Atomic<Int>(0)
    let leader = try await keyedLeader(keys) {
      $0.stepDown = {
        calls.add(1, ordering: .relaxed)
        return LeaseRecord(
          holder: "a", control: "", updates: "", fencingEpoch: 2, remaining: .seconds(6))
      }
    }
    func ask(as name: String) async throws -> ControlReply {
      let control = LeaderControl(leader: leader.controlEndpoint, security: keys.follower(name))
      let frames = try await offThePool { try control.exchange(ControlRequest.stepDown.frames) }
      return try ControlReply(frames: frames)
    }
    guard case .error(.unauthorized, let message) = try await ask(as: "writer") else {
      Issue.record("a write key's STEP-DOWN was not refused")
      return
    }
    #expect(message == "key writer has the write role: STEP-DOWN needs admin")
    #expect(calls.load(ordering: .relaxed) == 0)
    #expect(try await ask(as: "ops") == .handingOver(holder: "a", fencingEpoch: 2))
    #expect(calls.load(ordering: .relaxed) == 1)
    await leader.stop()
  }

  @Test("the journal records the key name of each action")
  func journalRecordsKeys() async throws {
    let keys = try KeyFixture()
    try keys.key("alice")
    let directory = try LeaderDirectory()
    let path = directory.journal
    let leader = try await keyedLeader(keys) { $0.journalPath = path }
    let alice = try await makeFollower(leader) { $0.security = keys.follower("alice") }
    _ = try await alice.send(Increment()).applied()
    leader.store.dispatch(Increment())
    await alice.stop()
    await leader.stop()
    let actions = try Journal(readingAt: path).recentActions(10)
    #expect(actions.map(\.origin.key) == ["alice", ""])
  }

  @Test("a secret key file others may read is refused, naming the file")
  func exposedSecretKey() throws {
    let keys = try KeyFixture()
    let file = keys.directory + "/alice.secret"
    try KeyFile.generate(name: "alice").write(to: file)
    #expect(throws: Never.self) { try KeyFile.readKeyPair(file) }
    chmod(file, 0o644)
    #expect(throws: KeyStoreError.secretKeyExposed(path: file, mode: 0o644)) {
      try KeyFile.readKeyPair(file)
    }
  }

  @Test("each leader's first log line states its security: loudly when plain")
  func firstLogLine() async throws {
    let plain = LogLines()
    let leader = try await makeLeader {
      $0.logger = TandemLogger(label: "leader", handler: plain)
    }
    #expect(plain.first?.level == .warning)
    #expect(plain.first?.message.hasPrefix("PLAIN MODE") == true)
    await leader.stop()
    let keys = try KeyFixture()
    let curve = LogLines()
    let keyed = try await keyedLeader(keys) {
      $0.logger = TandemLogger(label: "leader", handler: curve)
    }
    #expect(curve.first?.message.hasPrefix("CURVE on: leader key \(keys.leader.publicKey)") == true)
    await keyed.stop()
  }
}

/// A log handler keeping every record, for tests that read what a leader logged.
struct LogLines: TandemLogHandler {
  private final class Records: Sendable {
    let all = Mutex<[TandemLogRecord]>([])
  }
  private let records = Records()
  var logLevel: TandemLogger.Level = .trace
  var metadata: TandemLogger.Metadata = [:]

  func log(_ record: TandemLogRecord) { records.all.withLock { $0.append(record) } }

  var first: TandemLogRecord? { records.all.withLock { $0.first } }
}
