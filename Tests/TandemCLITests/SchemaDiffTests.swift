import Foundation
import Tandem
import TandemCLI
import TandemProtocol
import TandemSync
import Testing

/// `tandem schema diff`'s verdicts: which rolling-upgrade orders are safe.
@Suite struct SchemaDiffTests {
  enum ModeV1: String, Codable, CaseIterable { case on, off }
  enum ModeV2: String, Codable, CaseIterable { case on, off, paused }
  struct V1: Codable { var mode: ModeV1 }
  struct V2: Codable { var mode: ModeV2 }
  struct V3: Codable { var mode: Int }
  struct Ping: Action, Codable {}

  static func schema<S: Codable>(
    _ type: S.Type, actions: ActionRegistry = ActionRegistry()
  )
    -> ApplicationSchema
  {
    ApplicationSchema(type, registry: actions, version: "1")
  }

  @Test func anAddedActionIsSafeInAnyOrderAndNoted() {
    let diff = SchemaDiff(
      old: Self.schema(V1.self),
      new: Self.schema(V1.self, actions: ActionRegistry().registering(Ping.self, tag: "ping")))
    #expect(diff.safeOrders == [.followersFirst, .leaderFirst])
    #expect(diff.report.contains("refuses the new actions ping with unknown-tag"))
    #expect(diff.report.hasSuffix("rolling upgrade: safe in any order"))
  }

  @Test func anAddedEnumerationCaseNeedsTheFollowersFirst() {
    let diff = SchemaDiff(old: Self.schema(V1.self), new: Self.schema(V2.self))
    #expect(diff.safeOrders == [.followersFirst])
    #expect(diff.report.contains("old followers with a new leader: incompatible"))
    #expect(
      diff.report.contains(#"the state at /mode: enumeration case "paused" cannot be decoded"#))
    #expect(diff.report.hasSuffix("safe if every follower is replaced before the leader"))
  }

  @Test func aChangedTypeIsSafeInNoOrder() {
    let diff = SchemaDiff(old: Self.schema(V1.self), new: Self.schema(V3.self))
    #expect(diff.safeOrders.isEmpty)
    #expect(diff.report.contains("the journal's state at /mode: the type changed"))
    #expect(
      diff.report.hasSuffix("not safe in any order; stop every process, then start the new build"))
  }

  @Test func journalInspectShowsTheSnapshotsStateSchema() async throws {
    let directory = NSTemporaryDirectory() + "tandem-schema-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/leader.journal"
    let leader = try await makeShelfLeader { $0.journalPath = path }
    await leader.stop()
    let inspected = try await TandemProcess.run(["journal", "inspect", "--db", path])
    #expect(inspected.status == 0)
    #expect(
      inspected.output.contains(
        "state schema     TandemCLITests.Shelf {books: [String], count: Int}"))
    let json = try await TandemProcess.run(["journal", "inspect", "--db", path, "--json"])
    #expect(json.output.contains(#""stateSchema":{"shape":{"object":{"books""#))
  }
}
