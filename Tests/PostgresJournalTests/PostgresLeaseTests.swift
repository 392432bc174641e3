import Foundation
import PostgresTestSupport
import Synchronization
import Testing

@testable import TandemJournal
@testable import TandemProtocol

/// The leadership lease in the tests' private cluster: one table of steps (acquire, renew,
/// expire, steal, release) and the races of several would-be holders.
@Suite struct PostgresLeaseTests {
  /// One step of a lease's history and what the database must answer.
  enum Step: CustomStringConvertible {
    /// `holder` tries to take the lease; it gets `epoch`, or nothing (nil).
    case acquire(String, length: Duration = .seconds(60), epoch: UInt64?)
    /// `holder` renews with `fencingEpoch`; it succeeds or not.
    case renew(String, fencingEpoch: UInt64, succeeds: Bool)
    /// `holder` releases with `fencingEpoch`.
    case release(String, fencingEpoch: UInt64)
    /// The lease runs out (its expiry set in the past, as time passing would).
    case expire
    /// The lease as read: held by `holder` with `epoch` and running, or expired (holder nil).
    case current(holder: String?, epoch: UInt64?)

    var description: String {
      switch self {
      case .acquire(let holder, _, let epoch):
        "\(holder) acquires -> \(epoch.map { "\($0)" } ?? "nil")"
      case .renew(let holder, let epoch, let ok): "\(holder) renews \(epoch) -> \(ok)"
      case .release(let holder, let epoch): "\(holder) releases \(epoch)"
      case .expire: "the lease runs out"
      case .current(let holder, let epoch): "current \(holder ?? "expired") \(epoch ?? 0)"
      }
    }
  }

  static let histories: [(String, [Step])] = [
    (
      "first acquisition",
      [
        .current(holder: nil, epoch: nil), .acquire("a", epoch: 1),
        .current(holder: "a", epoch: 1),
      ]
    ),
    (
      "a running lease is not taken, not even by its holder",
      [
        .acquire("a", epoch: 1),
        .acquire("b", epoch: nil), .acquire("a", epoch: nil), .current(holder: "a", epoch: 1),
      ]
    ),
    (
      "renewal by the holder only, with its epoch",
      [
        .acquire("a", epoch: 1),
        .renew("a", fencingEpoch: 1, succeeds: true), .renew("a", fencingEpoch: 2, succeeds: false),
        .renew("b", fencingEpoch: 1, succeeds: false), .current(holder: "a", epoch: 1),
      ]
    ),
    (
      "an expired lease is not renewed",
      [
        .acquire("a", epoch: 1), .expire,
        .renew("a", fencingEpoch: 1, succeeds: false), .current(holder: nil, epoch: 1),
      ]
    ),
    (
      "steal after expiry raises the epoch",
      [
        .acquire("a", epoch: 1), .expire,
        .acquire("b", epoch: 2), .renew("a", fencingEpoch: 1, succeeds: false),
        .release("a", fencingEpoch: 1), .current(holder: "b", epoch: 2),
      ]
    ),
    (
      "the holder takes its lease again after expiry, one epoch up",
      [
        .acquire("a", epoch: 1),
        .expire, .acquire("a", epoch: 2), .current(holder: "a", epoch: 2),
      ]
    ),
    (
      "release hands over at once",
      [
        .acquire("a", epoch: 1), .release("a", fencingEpoch: 1),
        .current(holder: nil, epoch: 1), .acquire("b", epoch: 2),
        .renew("b", fencingEpoch: 2, succeeds: true),
      ]
    ),
    (
      "a stale release changes nothing",
      [
        .acquire("a", epoch: 1), .expire,
        .acquire("b", epoch: 2), .release("a", fencingEpoch: 1), .acquire("c", epoch: nil),
        .current(holder: "b", epoch: 2),
      ]
    ),
    (
      "a lease of a microsecond runs out by itself",
      [
        .acquire(
          "a", length: .microseconds(1),
          epoch: 1), .current(holder: nil, epoch: 1), .acquire("b", epoch: 2),
      ]
    ),
  ]

  @Test(arguments: histories)
  func history(_ name: String, _ steps: [Step]) throws {
    let database = try PostgresTestCluster.database()
    let lease = try PostgresLease(connection: database)
    let tamper = try PostgresConnection(database)
    for step in steps {
      switch step {
      case .acquire(let holder, let length, let epoch):
        let record = try lease.acquire(
          holder: holder, control: "tcp://\(holder):1", updates: "tcp://\(holder):2",
          length: length)
        #expect(record?.fencingEpoch == epoch, "\(step)")
        if let record {
          #expect(record.holder == holder && record.control == "tcp://\(holder):1")
          #expect(record.updates == "tcp://\(holder):2")
          #expect(record.remaining <= length, "\(step)")
        }
      case .renew(let holder, let fencingEpoch, let succeeds):
        let record = try lease.renew(
          holder: holder, fencingEpoch: fencingEpoch, length: .seconds(90))
        #expect((record != nil) == succeeds, "\(step)")
        if let record { #expect(record.remaining > .seconds(60), "\(step): \(record)") }
      case .release(let holder, let fencingEpoch):
        try lease.release(holder: holder, fencingEpoch: fencingEpoch)
      case .expire:
        try tamper.exec(
          "UPDATE tandem_lease SET expires_at = clock_timestamp() - interval '1 second'")
      case .current(let holder, let epoch):
        let record = try lease.current()
        #expect(record?.fencingEpoch == epoch, "\(step): \(String(describing: record))")
        if let holder {
          #expect(record?.holder == holder && record?.isExpired == false, "\(step)")
        } else if let record {
          #expect(record.isExpired, "\(step): \(record)")
        }
      }
    }
  }

  @Test func racingHoldersGetOneLeasePerRoundAndTheEpochRisesByOne() throws {
    let database = try PostgresTestCluster.database()
    let leases = try (0..<6).map { _ in try PostgresLease(connection: database) }
    let tamper = try PostgresConnection(database)
    for round in 1...5 {
      let winners = Mutex<[LeaseRecord]>([])
      let failures = Mutex<[String]>([])
      try runConcurrently(leases.count) { index in
        do {
          if let record = try leases[index].acquire(
            holder: "h\(index)", control: "c", updates: "u", length: .seconds(60))
          {
            winners.withLock { $0.append(record) }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty)
      let won = winners.withLock { $0 }
      #expect(won.count == 1, "round \(round): \(won)")
      #expect(won.first?.fencingEpoch == UInt64(round))
      #expect(try leases[0].current()?.holder == won.first?.holder)
      try tamper.exec("UPDATE tandem_lease SET expires_at = clock_timestamp() - interval '1 s'")
    }
  }

  @Test func aChangeWakesAWaiterAndNoChangeTimesOut() throws {
    let database = try PostgresTestCluster.database()
    let waiter = try PostgresLease(connection: database)
    let holder = try PostgresLease(connection: database)
    try waiter.waitForChange(timeout: .milliseconds(20))  // nothing happened: it times out
    let record = try #require(
      try holder.acquire(holder: "a", control: "c", updates: "u", length: .seconds(60)))
    // The notification is queued for the waiter since it was created: waiting returns at once
    // however long the timeout; a lost notification would hold the test for the time limit.
    try waiter.waitForChange(timeout: .seconds(600))
    try holder.release(holder: "a", fencingEpoch: record.fencingEpoch)
    try waiter.waitForChange(timeout: .seconds(600))
    #expect(try waiter.current()?.isExpired == true)
  }

  @Test func aBadConnectionStringIsAPostgresErrorWithoutThePassword() throws {
    let address = try PostgresTestCluster.address()
    let error = #expect(throws: JournalError.self) {
      try PostgresLease(
        connection: "host=\(address.directory) port=\(address.port) user=ghost password=pw1234 "
          + "dbname=postgres")
    }
    guard case .postgres(let location, _) = error else {
      Issue.record("expected a postgres error, got \(String(describing: error))")
      return
    }
    #expect(location.contains("user=ghost") && !location.contains("pw1234"))
    #expect(error.map { "\($0)" }?.contains("pw1234") == false)
  }
}

/// Runs `body(0)`...`body(count - 1)` on threads of their own, started together, and waits
/// for them all.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) throws {
  let start = DispatchSemaphore(value: 0)
  let finished = DispatchSemaphore(value: 0)
  for index in 0..<count {
    let thread = Thread {
      start.wait()
      body(index)
      finished.signal()
    }
    thread.start()
  }
  for _ in 0..<count { start.signal() }
  for _ in 0..<count { finished.wait() }
}
