/// One `tandem` subcommand: a name, a line of help, its usage text and what it does.
struct Command: Sendable {
  var name: String
  var summary: String
  var usage: String
  var run: @Sendable (_ arguments: [String]) throws -> Void

  /// Whether `arguments` ask for help instead of a run.
  static func wantsHelp(_ arguments: [String]) -> Bool {
    arguments.contains("--help") || arguments.contains("-h")
  }
}

/// A group of subcommands under one word (`tandem`, `tandem bench`), with generated help.
struct CommandGroup: Sendable {
  var name: String
  var summary: String
  var commands: [Command]

  /// The help text: the group's summary and one line per subcommand.
  var help: String {
    let width = commands.map(\.name.count).max() ?? 0
    let lines = commands.map { command in
      "  " + command.name + String(repeating: " ", count: width - command.name.count + 2)
        + command.summary
    }
    return "\(summary)\n\nUsage: \(name) <command> [options]\n\nCommands:\n"
      + lines.joined(separator: "\n")
      + "\n\nRun '\(name) <command> --help' for a command's options."
  }

  /// Runs the subcommand named by the first word; returns the process exit status.
  func run(_ arguments: [String]) -> ExitStatus {
    guard let first = arguments.first, first != "--help", first != "-h" else {
      print(help)
      return arguments.isEmpty ? .usage : .success
    }
    guard let command = commands.first(where: { $0.name == first }) else {
      printError("\(name): unknown command '\(first)'\n\n\(help)")
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    if Command.wantsHelp(rest) {
      print("\(command.summary)\n\nUsage: \(name) \(command.name) \(command.usage)")
      return .success
    }
    do {
      try command.run(rest)
      return .success
    } catch let error as UsageError {
      printError(
        "\(name) \(command.name): \(error)\nUsage: \(name) \(command.name) \(command.usage)")
      return .usage
    } catch {
      printError("\(name) \(command.name): \(error)")
      return .failure
    }
  }
}
