#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a ``StandbyLeader`` takes part in the leadership lease of its shared journal.
///
/// ```swift
/// var standby = StandbyConfiguration(leaseLength: .milliseconds(1500))
/// standby.advertisedControl = "tcp://leader-a.internal:5600"
/// ```
public struct StandbyConfiguration: Sendable, Equatable {
  /// This process's id in the lease (unique per process); by default `host:pid:random`.
  public var leaderID: String
  /// How long a taken or renewed lease lasts, by the database's clock. The active leader renews
  /// it every third of this, and stops acknowledging a fifth of it before it would run out: a
  /// standby takes over within about this long after the active leader's machine dies. At
  /// least 300 ms.
  public var leaseLength: Duration
  /// The control endpoint the lease advertises to followers (what a standby's `REDIRECT`
  /// names); by default the bound one. Set it when the leader binds a wildcard address
  /// (`tcp://*:5600`), to the address followers reach it at (`tcp://leader-a.internal:5600`).
  public var advertisedControl: String?

  /// A configuration with a lease of `leaseLength` (5 seconds by default) and a fresh leader id.
  public init(leaseLength: Duration = .seconds(5)) {
    self.leaseLength = leaseLength
    leaderID = Self.makeLeaderID()
  }

  /// `host:pid:random`: unique among the processes sharing a journal.
  public static func makeLeaderID() -> String {
    var name = [CChar](repeating: 0, count: 256)
    let host =
      gethostname(&name, name.count - 1) == 0
      ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : "host"
    let random = String(UInt32.random(in: .min ... .max), radix: 16)
    return "\(host):\(getpid()):\(random)"
  }
}
