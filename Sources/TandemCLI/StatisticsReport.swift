import StatePatch
import TandemSync

/// How `tandem stats` shows a leader's statistics: a table for people, canonical JSON for
/// scripts, and the lag check for health probes.
public enum StatisticsReport {
  /// A follower heard from within this many milliseconds counts as connected: a follower
  /// pings every quarter of its silence limit (500 ms by default), so a connected one is never
  /// silent this long, and one that stopped drops out of the list within it.
  public static let connectedWithinMilliseconds = 1500

  /// What `tandem stats` shows: with `all`, everything the leader sent; otherwise only the
  /// connected followers (see ``connectedWithinMilliseconds``) and not the ledger's clients.
  public static func selected(_ statistics: LeaderStatistics, all: Bool) -> LeaderStatistics {
    guard !all else { return statistics }
    var selected = statistics
    selected.followers.removeAll { $0.lastSeenMillisecondsAgo > connectedWithinMilliseconds }
    selected.clients = nil
    selected.clientCount = nil
    return selected
  }

  /// The statistics as one line of canonical JSON.
  public static func json(_ statistics: LeaderStatistics) -> String {
    var encoder = StateEncoder()
    do {
      return try encoder.encode(statistics).canonicalText
    } catch {
      preconditionFailure("LeaderStatistics always encodes: \(error)")
    }
  }

  /// The statistics as aligned lines for a terminal.
  public static func text(_ statistics: LeaderStatistics, leader: String) -> String {
    var lines = [
      "leader    \(leader)",
      "epoch     \(statistics.epoch)",
      "sequence  \(statistics.sequence)",
      statistics.backlogCount == 0
        ? "backlog   empty"
        : "backlog   \(statistics.backlogCount) deltas, from sequence \(statistics.backlogOldest)",
    ]
    if let degraded = statistics.degraded { lines.append("degraded  \(degraded)") }
    if let lease = statistics.lease { lines += leaseLines(lease) }
    if let security = statistics.security {
      lines.append(
        security.mode == "plain"
          ? "security  plain (no CURVE keys: unencrypted, unauthenticated)"
          : "security  curve, \(security.keys) keys")
      for (reason, count) in security.handshakeFailures.sorted(by: { $0.key < $1.key }) {
        lines.append("  handshake failures \(reason)  \(count)")
      }
    }
    lines.append("counters")
    let names = statistics.counters.keys.sorted()
    let nameWidth = names.map(\.count).max() ?? 0
    for name in names {
      lines.append("  " + pad(name, nameWidth) + "  " + String(statistics.counters[name]!))
    }
    if statistics.followers.isEmpty {
      lines.append("followers none")
    } else {
      lines.append("followers (\(statistics.followers.count))")
      let followers = statistics.followers.sorted { $0.client < $1.client }
      let width = max(6, followers.map(\.client.count).max() ?? 0)
      // A leader that counts each follower's misses (its catch-ups) gets a column for them.
      let counted = followers.contains { $0.missed != nil }
      lines.append(
        "  " + pad("CLIENT", width) + "  " + padLeft("LAG", 10)
          + (counted ? "  " + padLeft("MISSED", 10) : "") + "  LAST SEEN")
      for follower in followers {
        let missed = counted ? "  " + padLeft(String(follower.missed ?? 0), 10) : ""
        lines.append(
          "  " + pad(follower.client, width) + "  " + padLeft(String(follower.lag), 10) + missed
            + "  \(follower.lastSeenMillisecondsAgo) ms ago")
      }
    }
    if let clients = statistics.clients {
      lines += clientLines(clients, count: statistics.clientCount ?? clients.count)
    }
    return lines.joined(separator: "\n")
  }

  /// The lease (role, holder, fencing epoch, time left), then the standbys, one a line.
  private static func leaseLines(_ lease: LeaderStatistics.Lease) -> [String] {
    var lines = [
      "lease     \(lease.role); holder \(lease.holder) at \(lease.control), fencing epoch "
        + "\(lease.fencingEpoch)"
        + (lease.millisecondsLeft > 0 ? ", \(lease.millisecondsLeft) ms left" : "")
    ]
    guard !lease.standbys.isEmpty else {
      lines.append("standbys  none seen lately")
      return lines
    }
    lines.append("standbys (\(lease.standbys.count))")
    for standby in lease.standbys {
      lines.append(
        "  \(standby.id) at \(standby.control), \(standby.role), seen "
          + "\(standby.lastSeenMillisecondsAgo) ms ago")
    }
    return lines
  }

  /// The ledger's clients as a table, under a line saying how many the ledger holds.
  private static func clientLines(_ clients: [LeaderStatistics.Client], count: Int) -> [String] {
    guard !clients.isEmpty else { return ["clients   none in the ledger"] }
    let shown = clients.count < count ? ", the \(clients.count) most recent shown" : ""
    var lines = ["clients (\(count) in the ledger\(shown))"]
    let width = max(6, clients.map(\.client.count).max() ?? 0)
    lines.append(
      "  " + pad("CLIENT", width) + "  " + padLeft("LAST NUMBER", 12) + "  "
        + padLeft("LAST SEQUENCE", 14))
    for client in clients {
      lines.append(
        "  " + pad(client.client, width) + "  " + padLeft(String(client.lastNumber), 12) + "  "
          + padLeft(String(client.lastSequence), 14))
    }
    return lines
  }

  /// The followers that lag more than `maximum` sequences, worst first.
  public static func laggards(
    _ statistics: LeaderStatistics, maximum: UInt64
  ) -> [LeaderStatistics.Follower] {
    statistics.followers.filter { $0.lag > maximum }.sorted { $0.lag > $1.lag }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  private static func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
