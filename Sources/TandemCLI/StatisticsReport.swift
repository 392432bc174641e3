import StatePatch
import TandemSync

/// How `tandem stats` shows a leader's statistics: a table for people, canonical JSON for
/// scripts, and the lag check for health probes.
public enum StatisticsReport {
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
      "counters",
    ]
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
      lines.append("  " + pad("CLIENT", width) + "  " + padLeft("LAG", 10) + "  LAST SEEN")
      for follower in followers {
        lines.append(
          "  " + pad(follower.client, width) + "  " + padLeft(String(follower.lag), 10) + "  "
            + "\(follower.lastSeenMillisecondsAgo) ms ago")
      }
    }
    return lines.joined(separator: "\n")
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
