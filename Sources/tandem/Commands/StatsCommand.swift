import CommandLineKit
import TandemCLI

/// `tandem stats`: the leader's counters and followers; a health check.
let statsCommand = Command(
  name: "stats", summary: CommandHelp.stats.summary, usage: CommandHelp.stats.usage,
  run: { words in
    let options = try StatsOptions(arguments: words)
    let statistics = StatisticsReport.selected(
      try ControlClient(options.connection).statistics(), all: options.all)
    try writeLine(
      options.json
        ? StatisticsReport.json(statistics)
        : StatisticsReport.text(statistics, leader: options.connection.leader))
    if let degraded = statistics.degraded {
      throw CommandFailure(.temporaryFailure, "the leader is degraded: \(degraded)")
    }
    if let maximum = options.maximumLag {
      let laggards = StatisticsReport.laggards(statistics, maximum: maximum)
      if let worst = laggards.first {
        throw CommandFailure(
          .failure,
          "\(laggards.count) follower(s) lag more than \(maximum) sequences; the worst, "
            + "\(worst.client), lags \(worst.lag)")
      }
    }
  })
