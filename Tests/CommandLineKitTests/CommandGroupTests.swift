import Testing

@testable import CommandLineKit

@Suite("Command groups")
struct CommandGroupTests {
  let group = CommandGroup(
    name: "tool", summary: "A tool.",
    commands: [
      Command(name: "ok", summary: "Succeeds", usage: "[--x N]", run: { _ in }),
      Command(
        name: "misuse", summary: "Fails with a usage error", usage: "",
        run: { _ in
          throw UsageError("bad")
        }),
      Command(
        name: "fail", summary: "Fails", usage: "",
        run: { _ in
          struct Broken: Error {}
          throw Broken()
        }),
    ])

  @Test func helpListsEveryCommand() {
    #expect(group.help.contains("  ok      Succeeds"))
    #expect(group.help.contains("  misuse  Fails with a usage error"))
    #expect(group.help.contains("Usage: tool <command> [options]"))
  }

  @Test func exitStatusesFollowTheOutcome() {
    #expect(group.run(["ok"]) == .success)
    #expect(group.run(["ok", "--help"]) == .success)
    #expect(group.run(["--help"]) == .success)
    #expect(group.run([]) == .usage)
    #expect(group.run(["nope"]) == .usage)
    #expect(group.run(["misuse"]) == .usage)
    #expect(group.run(["fail"]) == .failure)
  }
}

@Suite("Command failures")
struct CommandFailureTests {
  @Test func aCommandFailureEndsWithItsStatus() {
    let group = CommandGroup(
      name: "tool", summary: "A tool.",
      commands: [
        Command(
          name: "refuse", summary: "Refused", usage: "",
          run: { _ in
            throw CommandFailure(.dataError, "refused")
          })
      ])
    #expect(group.run(["refuse"]) == .dataError)
  }
}
