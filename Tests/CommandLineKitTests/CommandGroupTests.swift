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

@Suite("Usage errors, suggestions and the version")
struct UsageMessageTests {
  let group = CommandGroup(
    name: "tool", summary: "A tool.",
    commands: [
      Command(
        name: "stats", summary: "Statistics",
        usage: "--leader ENDPOINT [--json]\n  [--all]\n\nLong text.\n\nOptions:\n  --json  JSON",
        run: { _ in throw UsageError("missing --leader") }),
      Command(name: "snapshot", summary: "Snapshot", usage: "Exit status:\n  0 ok", run: { _ in }),
    ],
    exitStatuses: "Exit status:\n  0   success\n  64  misuse")

  @Test func aMisspelledCommandGetsASuggestion() {
    #expect(
      group.unknownCommand("stat") == """
        tool: unknown command 'stat' (did you mean 'stats'?)
        Usage: tool <command> [options]
        Run 'tool --help' for the list of commands.
        """)
    #expect(group.unknownCommand("snap").contains("(did you mean 'snapshot'?)"))
    #expect(group.unknownCommand("stast").contains("(did you mean 'stats'?)"))
    #expect(!group.unknownCommand("frobnicate").contains("did you mean"))
  }

  @Test func aUsageErrorShowsTheSynopsisNotTheWholeHelp() {
    let message = group.usageError(UsageError("missing --leader"), of: group.commands[0])
    #expect(
      message == """
        tool stats: missing --leader
        Usage: tool stats --leader ENDPOINT [--json] [--all]
        Run 'tool stats --help' for its options and exit statuses.
        """)
    #expect(group.run(["stats"]) == .usage)
  }

  @Test func theGroupsExitStatusesCompleteACommandsHelp() {
    #expect(
      group.help(of: group.commands[0]).hasSuffix("\n\nExit status:\n  0   success\n  64  misuse"))
    // A command that documents its own statuses keeps them alone.
    #expect(!group.help(of: group.commands[1]).contains("misuse"))
  }

  @Test func versionIsThePackagesAtEveryLevel() {
    #expect(group.versionLine == "tool \(PackageVersion.current)")
    #expect(group.run(["--version"]) == .success)
    let nested = CommandGroup(name: "tool files", summary: "Files.", commands: [])
    #expect(nested.versionLine == "tool \(PackageVersion.current)")
    #expect(PackageVersion.current.split(separator: ".").count == 3)
    #expect(group.help.contains("'tool --version' prints the version."))
  }
}
