#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CURVE options of every process that connects to or runs a leader, as the `tandem`
/// commands and the examples read them: `--key FILE` (a key pair file of `tandem keygen`),
/// `--leader-key KEY` (the leader's public key, Z85 or its public key file) for followers,
/// `--keys DIR` (the key store) for leaders; each with an environment variable that stands in
/// for it: `TANDEM_KEY`, `TANDEM_LEADER_KEY`, `TANDEM_KEYS`.
///
/// ```swift
/// configuration.security = try SecurityOptions.follower(
///   key: arguments.option("key"), leaderKey: arguments.option("leader-key"))
/// ```
public enum SecurityOptions {
  /// The help lines of the follower's options.
  public static let followerHelp = """
      --key FILE          this process's key pair file (from `tandem keygen`, mode 0600),
                          for a leader with CURVE keys (default: TANDEM_KEY)
      --leader-key KEY    the leader's public key, 40 characters of Z85 or its public key
                          file, pinned (default: TANDEM_LEADER_KEY); give both or neither
    """

  /// The help lines of a leader's options.
  public static let leaderHelp = """
      --key FILE          the leader's key pair file (from `tandem keygen`, mode 0600):
                          turns CURVE on (default: TANDEM_KEY); without it the leader runs
                          in plain mode, unencrypted and unauthenticated
      --keys DIR          the key store: the client keys it accepts, with their roles
                          (`tandem keys add`; default: TANDEM_KEYS); SIGHUP reloads it
    """

  /// Why the options do not make a configuration; the message says what to give.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// A follower's keys from the values of `--key` and `--leader-key`, or where one is `nil`
  /// its environment variable (from `environment`, or the process's); `nil` when neither is
  /// given.
  public static func follower(
    key: String?, leaderKey: String?, environment: [String: String]? = nil
  ) throws(Problem) -> FollowerSecurity? {
    let key = key ?? variable("TANDEM_KEY", environment)
    let leaderKey = leaderKey ?? variable("TANDEM_LEADER_KEY", environment)
    switch (key, leaderKey) {
    case (nil, nil):
      return nil
    case (nil, _?):
      throw Problem(
        description:
          "--leader-key needs --key: give this process's key pair file too (`tandem keygen`)")
    case (_?, nil):
      throw Problem(
        description: "--key needs --leader-key: give the leader's public key (its .key file, "
          + "or the 40 characters its `CURVE on` log line shows)")
    case (let key?, let leaderKey?):
      do {
        return try FollowerSecurity(keyFile: key, leaderKey: leaderKey)
      } catch {
        throw Problem(description: error.description)
      }
    }
  }

  /// A leader's keys from the values of `--key` and `--keys`, or their environment variables;
  /// `nil` when neither is given (plain mode).
  public static func leader(
    key: String?, keyStore: String?, environment: [String: String]? = nil
  ) throws(Problem) -> LeaderSecurity? {
    let key = key ?? variable("TANDEM_KEY", environment)
    let store = keyStore ?? variable("TANDEM_KEYS", environment)
    switch (key, store) {
    case (nil, nil):
      return nil
    case (nil, _?):
      throw Problem(
        description: "--keys needs --key: give the leader's key pair file (`tandem keygen`)")
    case (_?, nil):
      throw Problem(
        description: "--key needs --keys: give the key store directory of the client keys to "
          + "accept (`tandem keys add`)")
    case (let key?, let store?):
      do {
        return try LeaderSecurity(keyFile: key, keyStore: store)
      } catch {
        throw Problem(description: error.description)
      }
    }
  }

  private static func variable(_ name: String, _ environment: [String: String]?) -> String? {
    let value: String?
    if let environment {
      value = environment[name]
    } else {
      value = getenv(name).map { String(cString: $0) }
    }
    return value.flatMap { $0.isEmpty ? nil : $0 }
  }
}
