
import Foundation
import Synchronization
@testable import TandemProtocol
@testable import TandemSync
import ZeroMQ
import Testing

@Suite("A leader's start")
struct LeaderStartTests {
  @Test func anEndpointThatIsNotOneIsRefusedByName() async throws {
    await #expect(throws: LeaderError.invalidEndpoint("tcp:/127.0.0.1")) {
      try await makeLeader { $0.control = "tcp:/127.0.0.1" }
    }
  }

  @Test func aPortAnotherLeaderHoldsIsNamedWithTheSystemsReason() async throws {
    let first = try await makeLeader()
    let taken = first.controlEndpoint
    let error = await #expect(throws: LeaderError.self) {
      try await makeLeader { $0.control = taken }
    }
    guard case .cannotBind(let endpoint, let cause) = error else {
      Issue.record("expected cannotBind, got \(String(describing: error))")
      await first.stop()
      return
    }
    #expect(endpoint == taken)
    #expect(cause.message == "Address already in use")
    #expect(cause.code == .addressInUse)
    #expect(error?.description == "cannot bind \(taken): Address already in use")
    await first.stop()
  }

  @Test func aCatchUpFromTheNextSequenceOfANewLeaderIsAnsweredWithNoDeltas() async throws {
    let leader = try await makeLeader()
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    // In step with a leader whose backlog is still empty: nothing to catch up, no snapshot.
    #expect(try client.request(.catchUp(leader.epoch, from: 1)) == .deltas(leader.epoch, []))
    await leader.stop()
  }

  @Test(.timeLimit(.minutes(1)))
  func anActionArrivingAsTheLeaderStartsIsRecordedAndAcknowledged() async throws {
    // The leader's init runs on a gate that holds it at its first suspension, after which its
    // sockets are bound and its loop takes requests. The init does not suspend when its loop
    // answers before it has begun to wait: then it runs to the end, and we start another.
    for _ in 0..<20 {
      let directory = try LeaderDirectory()
      let (control, updates) = (directory.control, directory.updates)
      let gate = GatedExecutor()
      let starting = Task(executorPreference: gate) {
        let leader = try await makeLeader {
          $0.control = control
          $0.updates = updates
        }
        gate.finish()
        return leader
      }
      await eventually("the leader's start is held or over") { gate.isHolding || gate.isFinished }
      guard gate.isHolding else {
        try await starting.value.stop()
        continue
      }
      let client = RawClient(endpoint: control)
      defer { client.close() }
      let reply = try client.request(
        .dispatch(
          ForwardedAction(
            client: "early", number: 1, tag: "test.increment", payload: Array(#"{"by":1}"#.utf8)
          )))
      gate.open()
      let leader = try await starting.value
      #expect(reply == .ack(client: "early", number: 1, leader.epoch, sequence: 1))
      #expect(leader.sequence == 1)
      #expect(leader.store.state.counter == 1)
      await leader.stop()
      return
    }
    Issue.record("the leader's start never suspended")
  }
}

/// Runs the first job it is given at once and holds every later one until ``open()``: a task
/// that prefers it stops at its first suspension point.
private final class GatedExecutor: TaskExecutor, Sendable {
  private let state = Mutex<(started: Bool, open: Bool, held: [UnownedJob])>((false, false, []))
  private let finished = Atomic<Bool>(false)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let runNow = state.withLock { state in
      guard state.open || !state.started else {
        state.held.append(job)
        return false
      }
      state.started = true
      return true
    }
    if runNow { run(job) }
  }

  /// Whether a job waits for ``open()``.
  var isHolding: Bool { state.withLock { !$0.held.isEmpty } }

  /// Whether the task said it is over (``finish()``).
  var isFinished: Bool { finished.load(ordering: .acquiring) }

  /// Says the task is over.
  func finish() { finished.store(true, ordering: .releasing) }

  /// Runs the held jobs, and every later one at once.
  func open() {
    let held = state.withLock { state in
      state.open = true
      defer { state.held = [] }
      return state.held
    }
    for job in held { run(job) }
  }

  private func run(_ job: UnownedJob) {
    Thread.detachNewThread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
