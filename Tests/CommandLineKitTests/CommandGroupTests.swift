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

  @Test func helpAfterADoubleDashIsAnArgument() {
    #expect(Command.wantsHelp(["--x", "1", "--help"]))
    #expect(Command.wantsHelp(["-h", "--", "a"]))
    #expect(!Command.wantsHelp(["--x", "1", "--", "--help"]))
    #expect(!Command.wantsHelp(["--", "-h"]))
    #expect(group.run(["misuse", "--", "--help"]) == .usage)
  }

  @Test func helpIsAlsoACommand() {
    #expect(group.run(["help"]) == .success)
    #expect(group.run(["help", "misuse"]) == .success)
    #expect(group.run(["help", "nope"]) == .usage)
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

@Suite("Nested command groups")
struct NestedCommandGroupTests {
  let tool = CommandGroup(
    name: "tool", summary: "A tool.",
    commands: [
      Command(
        name: "files", summary: "Subcommands about files",
        subcommands: CommandGroup(
          name: "tool files", summary: "Files.",
          commands: [
            Command(name: "ok", summary: "Succeeds", usage: "", run: { _ in }),
            Command(
              name: "misuse", summary: "Fails with a usage error", usage: "",
              run: { _ in
                throw UsageError("bad")
              }),
            Command(
              name: "refuse", summary: "Refused", usage: "",
              run: { _ in
                throw CommandFailure(.dataError, "refused")
              }),
          ]))
    ])

  @Test func aSubcommandEndsWithItsOwnStatus() {
    #expect(tool.run(["files", "ok"]) == .success)
    #expect(tool.run(["files", "misuse"]) == .usage)
    #expect(tool.run(["files", "refuse"]) == .dataError)
    #expect(tool.run(["files", "nope"]) == .usage)
    #expect(tool.run(["files"]) == .usage)
  }

  @Test func helpIsTheSubcommandsOwn() {
    #expect(tool.run(["files", "--help"]) == .success)
    #expect(tool.run(["files", "misuse", "--help"]) == .success)
  }
}
