import CommandLineKit
import StatePatch

/// The options of `tandem dispatch`: the leader, the action's tag (`--type`) and its JSON
/// payload (`--json`, default `{}`).
public struct DispatchOptions: Sendable, Equatable {
  /// The leader and how long to wait for it.
  public var connection: LeaderConnection
  /// The action's registered tag, e.g. `counter.increment`.
  public var tag: String
  /// The action's payload.
  public var payload: JSONValue

  /// Reads the options from the command's words; `environment` stands in for `TANDEM_LEADER`.
  public init(arguments words: [String], environment: String?? = nil) throws(UsageError) {
    var arguments = try CommandLineArguments(words)
    connection = try LeaderConnection(&arguments, environment: environment)
    guard let tag = arguments.option("type") else {
      throw arguments.missing(
        "type", "give the action's registered tag, e.g. --type counter.increment")
    }
    guard !tag.isEmpty else {
      throw UsageError("--type is empty: give the action's registered tag, e.g. counter.increment")
    }
    self.tag = tag
    let text = arguments.option("json") ?? "{}"
    do {
      payload = try JSONParser().parse(text)
    } catch {
      throw UsageError(
        "--json is not valid JSON (\(error)): quote it for the shell, e.g. --json '{\"by\": 2}'")
    }
    try arguments.finish()
  }
}
