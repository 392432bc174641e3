/// One subcommand of a tool: a name, a line of help, its usage text and what it does.
public struct Command: Sendable {
  public var name: String
  public var summary: String
  public var usage: String
  public var run: @Sendable (_ arguments: [String]) throws -> Void
  /// The subcommands, when this command is a group of its own (`tandem journal`): the group
  /// that contains this command hands it the words after its name, help and all, and ends with
  /// the status of the subcommand that ran.
  public var subcommands: CommandGroup?

  public init(
    name: String, summary: String, usage: String,
    run: @escaping @Sendable (_ arguments: [String]) throws -> Void
  ) {
    self.name = name
    self.summary = summary
    self.usage = usage
    self.run = run
  }

  /// A command whose first word names one of `subcommands`: `tool files list --long` runs `list`
  /// of the `files` group with `--long`. `--help` shows the group's help or the subcommand's, and
  /// a usage error or a failure in a subcommand ends the process with that subcommand's status.
  public init(name: String, summary: String, subcommands: CommandGroup) {
    self.init(
      name: name, summary: summary, usage: "<command> [options]",
      run: { arguments in
        let status = subcommands.run(arguments)
        guard status == .success else { throw CommandFailure(status, "") }
      })
    self.subcommands = subcommands
  }

  /// Whether `arguments` ask for help instead of a run: `--help` or `-h` among the options, not
  /// after the `--` that ends them.
  public static func wantsHelp(_ arguments: [String]) -> Bool {
    let options = arguments.prefix { $0 != CommandLineArguments.endOfOptions }
    return options.contains("--help") || options.contains("-h")
  }
}

/// A group of subcommands under one word (`tandem`, `tandem bench`), with generated help.
public struct CommandGroup: Sendable {
  public var name: String
  public var summary: String
  public var commands: [Command]

  public init(name: String, summary: String, commands: [Command]) {
    self.name = name
    self.summary = summary
    self.commands = commands
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
  }

  /// Runs the subcommand named by the first word; returns the process exit status. `help`, alone
  /// or before a command's name, shows the help as `--help` does.
  public func run(_ arguments: [String]) -> ExitStatus {
    if arguments.first == "help", !commands.contains(where: { $0.name == "help" }) {
      return run(Array(arguments.dropFirst()) + ["--help"])
    }
    guard let first = arguments.first, first != "--help", first != "-h" else {
      return show(help, then: arguments.isEmpty ? .usage : .success)
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      printError("\(name): unknown command '\(first)'\n\n\(help)")
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    if let subcommands = command.subcommands {
      return subcommands.run(rest)
    }
    if Command.wantsHelp(rest) {
      return show(
        "\(command.summary)\n\nUsage: \(name) \(command.name) \(command.usage)", then: .success)
    }
    do {
      try command.run(rest)
      return .success
    } catch let error as UsageError {
      printError(
        "\(name) \(command.name): \(error)\nUsage: \(name) \(command.name) \(command.usage)")
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
