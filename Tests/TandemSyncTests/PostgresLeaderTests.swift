import PostgresTestSupport
import Tandem
import TandemJournal
import Testing

@testable import TandemProtocol
@testable import TandemSync

/// A leader on a PostgreSQL journal (the tests' private cluster): it recovers, appends, serves
/// and restarts on the database as on an SQLite file.
@Suite("A leader on a PostgreSQL journal", .serialized)
struct PostgresLeaderTests {
  /// A leader on the journal in `database`, at the endpoints of `directory` (so that a follower
  /// finds the leader started after it).
  func makePostgresLeader(
    _ database: String, _ directory: borrowing LeaderDirectory
  ) async throws -> Leader<TestState> {
    let control = directory.control
    let updates = directory.updates
    return try await makeLeader {
      $0.journalLocation = .postgres(connection: database)
      $0.control = control
      $0.updates = updates
    }
  }

  /// Sends `client`'s action `number` (an increment) straight to `leader`'s control socket.
  func dispatch(
    _ leader: Leader<TestState>, client: String, number: UInt64
  ) throws
    -> ControlReply
  {
    let raw = RawClient(endpoint: leader.controlEndpoint)
    defer { raw.close() }
    return try raw.request(
      .dispatch(
        ForwardedAction(
          client: client, number: number, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8)
        )))
  }

  @Test func aNewLeaderOnTheSameDatabaseRecoversStateSequenceEpochAndLedger() async throws {
    let database = try PostgresTestCluster.database()
    let directory = try LeaderDirectory()
    let first = try await makePostgresLeader(database, directory)
    let follower = try await makeFollower(first) { $0.clientID = "steady" }
    for value in 0..<40 {
      _ = try await follower.send(Record(client: "steady", value: value)).applied()
      for _ in 0..<3 { first.store.dispatch(Increment()) }
    }
    let acknowledged = try dispatch(first, client: "raw", number: 1)
    guard case .ack(_, 1, _, let appliedAt) = acknowledged else {
      Issue.record("expected an ACK, got \(acknowledged)")
      return
    }
    let before = first.store.state
    let sequence = first.sequence
    await first.stop()

    let second = try await makePostgresLeader(database, directory)
    #expect(second.epoch == first.epoch)
    #expect(second.sequence == sequence)
    #expect(second.store.state == before)
    // The resent action is a duplicate: acknowledged at the sequence it was applied at, from
    // the recovered ledger, and not applied again.
    #expect(
      try dispatch(second, client: "raw", number: 1)
        == .ack(client: "raw", number: 1, first.epoch, sequence: appliedAt))
    #expect(second.store.state == before)
    // The follower rejoins with a catch-up, its numbering continuing.
    _ = try await follower.send(Record(client: "steady", value: 40)).applied()
    #expect(second.store.state.log["steady"] == Array(0...40))
    #expect(follower.store.state == second.store.state)
    #expect(try await follower.statistics().resyncs == 0)
    await follower.stop()
    await second.stop()

    let journal = try PostgresJournal(connection: database)
    #expect(try journal.verify().isSound)
    #expect(try journal.lastSequence == second.sequence)
  }

  /// The restore procedure end to end: a running leader's PostgreSQL journal backed up, the
  /// leader going on after the backup, then the backup restored into a new database, where a
  /// leader starts with the backup's state in a new epoch, and its follower resyncs to it.
  @Test func aBackupRestoredIntoANewDatabaseStartsALeaderInANewEpoch() async throws {
    let database = try PostgresTestCluster.database()
    let directory = try LeaderDirectory()
    let first = try await makePostgresLeader(database, directory)
    let follower = try await makeFollower(first) { $0.clientID = "steady" }
    for value in 0..<30 {
      _ = try await follower.send(Record(client: "steady", value: value)).applied()
    }
    // Every action so far is acknowledged, so committed: the backup holds them all.
    let atBackup = first.store.state
    let backupSequence = first.sequence
    let backupPath = directory.path + "/backup.journal"
    let backup = try PostgresJournal(readingAt: database).backup(to: backupPath)
    #expect(backup.sequence == backupSequence)
    #expect(backup.epoch == first.epoch)
    // The leader goes on: these acknowledged actions are not in the backup.
    for value in 30..<35 {
      _ = try await follower.send(Record(client: "steady", value: value)).applied()
    }
    await first.stop()

    let restored = try PostgresTestCluster.database()
    let restore = try PostgresJournal.restore(from: backupPath, into: restored)
    #expect(restore.lastSequence == backupSequence)
    let second = try await makePostgresLeader(restored, directory)
    #expect(second.epoch == restore.epoch)
    #expect(second.epoch != first.epoch)
    #expect(second.sequence == backupSequence)
    #expect(second.store.state == atBackup)

    // The follower, which saw the lost actions, resyncs to the restored history, and its
    // next action is applied after it.
    let resynced = await eventually("the follower resyncs to the restored history") {
      follower.store.state == atBackup
    }
    #expect(resynced)
    _ = try await follower.send(Record(client: "steady", value: 100)).applied()
    #expect(second.store.state.log["steady"] == Array(0..<30) + [100])
    #expect(follower.store.state == second.store.state)
    #expect(try await follower.statistics().resyncs >= 1)
    await follower.stop()
    await second.stop()
    #expect(try PostgresJournal(readingAt: restored).verify().isSound)
  }
}
