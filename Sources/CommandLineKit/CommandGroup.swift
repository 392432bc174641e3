/// A group of subcommands under one word (`tandem`, `tandem bench`), with generated help.
///
/// Besides running the subcommand its first word names, a group answers `--help` (or `help`)
/// with its list of commands and `--version` with ``PackageVersion/current``. A word that names
/// no command is refused with the nearest command's name as a suggestion, and a usage error
/// prints the command's one-line usage and how to get its help, not the whole help.
public struct CommandGroup: Sendable {
  public var name: String
  public var summary: String
  public var commands: [Command]
  /// The "Exit status:" section of the help of every command in the group whose own usage text
  /// has none.
  public var exitStatuses: String?
  /// The executable's state and action schema as JSON, which `--print-schema` prints (for
  /// `tandem schema diff`); nil for a group without one.
  public var schema: (@Sendable () -> String)?

  public init(
    name: String, summary: String, commands: [Command], exitStatuses: String? = nil,
    schema: (@Sendable () -> String)? = nil
  ) {
    self.name = name
    self.summary = summary
    self.commands = commands
    self.exitStatuses = exitStatuses
    self.schema = schema
  }

  /// The help text: the group's summary and one line per subcommand.
  public var help: String {
    let width = commands.map(\.name.count).max() ?? 0
    let lines = commands.map { command in
      "  " + command.name + String(repeating: " ", count: width - command.name.count + 2)
        + command.summary
    }
    return "\(summary)\n\nUsage: \(name) <command> [options]\n\nCommands:\n"
      + lines.joined(separator: "\n")
      + "\n\nRun '\(name) <command> --help' (or '\(name) help <command>') for a command's options."
      + "\n'\(name) --version' prints the version."
      + (schema == nil
        ? ""
        : "\n'\(name) --print-schema' prints the state and action schema, for "
          + "'tandem schema diff'.")
  }

  /// The line `--version` prints: the executable's name and the package's version.
  public var versionLine: String {
    let tool = name.split(separator: " ").first.map(String.init) ?? name
    return "\(tool) \(PackageVersion.current)"
  }

  /// The help of `command`, as `--help` after its name shows it.
  public func help(of command: Command) -> String {
    var text = "\(command.summary)\n\nUsage: \(name) \(command.name) \(command.usage)"
    if let exitStatuses, !command.usage.contains("Exit status") {
      text += "\n\n" + exitStatuses
    }
    return text
  }

  /// The message for a word that names no command: what was given, the likely command, the
  /// group's usage and how to list its commands.
  public func unknownCommand(_ word: String) -> String {
    let suggestion = likelyMeant(word, among: commands.map(\.name))
    return "\(name): unknown command '\(word)'"
      + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
      + "\nUsage: \(name) <command> [options]\nRun '\(name) --help' for the list of commands."
  }

  /// The message for a usage error of `command`: the error, the command's synopsis (its usage
  /// up to the first blank line) and how to get its help.
  public func usageError(_ error: UsageError, of command: Command) -> String {
    let synopsis = command.usage.split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { !$0.trimmingSpaces.isEmpty }
      .map { $0.trimmingSpaces }.joined(separator: " ")
    return "\(name) \(command.name): \(error)\nUsage: \(name) \(command.name) \(synopsis)"
      + "\nRun '\(name) \(command.name) --help' for its options and exit statuses."
  }

  /// Runs the subcommand named by the first word; returns the process exit status. `help`, alone
  /// or before a command's name, shows the help as `--help` does.
  public func run(_ arguments: [String]) -> ExitStatus {
    if arguments.first == "help", !commands.contains(where: { $0.name == "help" }) {
      return run(Array(arguments.dropFirst()) + ["--help"])
    }
    if arguments.first == "--version" {
      return show(versionLine, then: .success)
    }
    if arguments == ["--print-schema"], let schema {
      return show(schema(), then: .success)
    }
    guard let first = arguments.first, first != "--help", first != "-h" else {
      return show(help, then: arguments.isEmpty ? .usage : .success)
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      printError(unknownCommand(first))
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    if let subcommands = command.subcommands {
      return subcommands.run(rest)
    }
    if Command.wantsHelp(rest) {
      return show(help(of: command), then: .success)
    }
    do {
      try command.run(rest)
      return .success
    } catch let error as UsageError {
      printError(usageError(error, of: command))
      return .usage
    } catch let failure as CommandFailure {
      printError("\(name) \(command.name): \(failure.message)")
      return failure.status
    } catch {
      printError("\(name) \(command.name): \(error)")
      return .failure
    }
  }

  /// Writes `help` to standard output and returns `status`; says why and returns
  /// ``ExitStatus/ioError`` when it cannot be written.
  private func show(_ help: String, then status: ExitStatus) -> ExitStatus {
    do {
      try writeLine(help)
      return status
    } catch {
      printError("\(name): \(error)")
      return error.status
    }
  }
}

extension Substring {
  /// The text without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
