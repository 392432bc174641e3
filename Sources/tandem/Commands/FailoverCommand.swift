import CommandLineKit
import TandemCLI

/// `tandem failover`: a clean hand-over of the lease from the active leader to a standby.
let failoverCommand = Command(
  name: "failover", summary: CommandHelp.failover.summary, usage: CommandHelp.failover.usage,
  run: { words in
    let options = try FailoverOptions(arguments: words)
    let handOver = try Failover.run(options) { line throws(CommandFailure) in
      try writeLine(line)
    }
    try writeLine(handOver.summary)
  })
