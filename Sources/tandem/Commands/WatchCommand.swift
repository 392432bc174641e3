import CommandLineKit
import TandemCLI
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tandem watch`: every delta as the leader applies it.
let watchCommand = Command(
  name: "watch", summary: CommandHelp.watch.summary, usage: CommandHelp.watch.usage,
  run: { words in
    let options = try ReadOptions(arguments: words, allowsCount: true)
    let report = DeltaReport(path: options.path, json: options.json)
    var configuration = FollowerConfiguration(leader: options.connection.leader)
    configuration.clientID = "tandem-watch-" + FollowerConfiguration.randomClientID()
    configuration.joinTimeout = options.connection.timeout
    let limit = options.count
    if getenv("TANDEM_LOG") == nil {
      // The deltas are the output; the follower's joins and resyncs would only interleave.
      Logger.level = .error
    }
    try blockingAsync { [configuration] in
      let follower = try await joinLeader(configuration)
      let start = try await follower.statistics()
      printError("watching epoch \(start.epoch) from sequence \(start.sequence)")
      var printed = 0
      // Deltas applied between the announced start and the stream's first one show as a jump.
      var last = DeltaReport.start(of: start)
      for await (epoch, delta) in try await follower.deltas() {
        if let line = report.resync(after: last, before: delta, epoch: epoch) {
          writeLine(line)
        }
        last = (epoch, delta.sequence)
        guard let text = try report.render(delta, epoch: epoch) else { continue }
        writeLine(text)
        printed += 1
        if let limit, printed >= limit { break }
      }
      await follower.stop()
    }
  })
