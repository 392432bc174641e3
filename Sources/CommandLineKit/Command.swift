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
