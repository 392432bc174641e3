import CommandLineKit
import StatePatch

/// The options of `tandem snapshot` and `tandem watch`: the leader, an optional `--path` into
/// the state, and `--json` output.
public struct ReadOptions: Sendable, Equatable {
  /// The leader and how long to wait for it.
  public var connection: LeaderConnection
  /// The part of the state to show (the root when `--path` is absent).
  public var path: JSONPointer
  /// Machine-readable output: canonical JSON, one document per line.
  public var json: Bool
  /// `watch` only: stop after this many deltas (`--count`); `nil` watches until interrupted.
  public var count: Int?
  /// `watch` only: end with status 69 when the follower loses the leader, or the leader
  /// restarts with a new history (`--exit-on-loss`), instead of reporting it and going on.
  public var exitOnLoss = false

  /// Reads the options; `forWatch` admits the options of `watch`, `--count` and
  /// `--exit-on-loss`.
  public init(
    arguments words: [String], forWatch: Bool = false, environment: String?? = nil
  ) throws(UsageError) {
    var arguments = try CommandLineArguments(words, flags: ["json", "exit-on-loss"])
    connection = try LeaderConnection(&arguments, environment: environment)
    path = try Self.pointer(arguments.option("path"))
    json = arguments.flag("json")
    if forWatch {
      if let text = arguments.option("count") {
        guard let value = Int(text), value >= 1 else {
          throw UsageError("--count takes a whole number of deltas, at least 1, not '\(text)'")
        }
        count = value
      }
      exitOnLoss = arguments.flag("exit-on-loss")
    }
    try arguments.finish()
  }

  /// Parses a `--path` value, explaining RFC 6901's syntax when it is wrong.
  static func pointer(_ text: String?) throws(UsageError) -> JSONPointer {
    guard let text else { return .root }
    do {
      return try JSONPointer(parsing: text)
    } catch {
      throw UsageError(
        "--path '\(text)' is not a JSON pointer (\(error)): use /member/0/other, '' for the "
          + "whole state, ~1 for '/' and ~0 for '~' inside a name")
    }
  }
}
