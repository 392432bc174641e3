import Foundation
import TandemSync
import Testing

/// The `tandem` executable run as a process, on input it must refuse or output it cannot write.
@Suite("The tandem executable on bad input")
struct ExecutableTests {
  @Test func outputThatCannotBeWrittenEndsWithStatus74() async throws {
    let leader = try await makeShelfLeader()
    // Standard output open for reading only: every write to it fails.
    let readOnly = try #require(FileHandle(forReadingAtPath: "/dev/null"))
    let snapshot = try await TandemProcess.run(
      ["snapshot", "--leader", leader.controlEndpoint], standardOutput: readOnly)
    #expect(snapshot.status == 74)
    #expect(snapshot.error.contains("tandem snapshot: cannot write to standard output"))

    let dispatch = try await TandemProcess.run(
      [
        "dispatch", "--leader", leader.controlEndpoint, "--type", "shelf.add", "--json",
        #"{"title": "Dune"}"#,
      ],
      standardOutput: readOnly)
    #expect(dispatch.status == 74)
    // The sequence that could not be printed is in the message.
    #expect(dispatch.error.contains("the leader applied the action at sequence 1, but cannot"))
    #expect(leader.store.state.books == ["Dune"])
    await leader.stop()
  }
}
