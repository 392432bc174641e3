import CommandLineKit
import TandemSync

/// The CURVE options of the `tandem` commands (see ``TandemSync/SecurityOptions``), read from
/// the command line with usage errors.
public enum KeyOptions {
  /// The help lines of the follower's options.
  public static let help = SecurityOptions.followerHelp

  /// Reads a follower's `--key` and `--leader-key` (or their environment variables, from
  /// `environment` or the process's); `nil` when neither is given.
  public static func follower(
    _ arguments: inout CommandLineArguments, environment: [String: String]? = nil
  ) throws(UsageError) -> FollowerSecurity? {
    do {
      return try SecurityOptions.follower(
        key: arguments.option("key"), leaderKey: arguments.option("leader-key"),
        environment: environment)
    } catch {
      throw UsageError(error.description)
    }
  }
}
