import CommandLineKit
import TandemCLI
import TandemSync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tandem watch`: every delta as the leader applies it, and every loss of the leader.
let watchCommand = Command(
  name: "watch", summary: CommandHelp.watch.summary, usage: CommandHelp.watch.usage,
  run: { words in
    let options = try ReadOptions(arguments: words, forWatch: true)
    let watch = Watch(options: options)
    var configuration = FollowerConfiguration(leader: options.connection.leader)
    configuration.standbyLeaders = Array(options.connection.leaders.dropFirst())
    configuration.clientID = "tandem-watch-" + FollowerConfiguration.randomClientID()
    configuration.joinTimeout = options.connection.timeout
    configuration.security = options.connection.security
    if getenv("TANDEM_LOG") == nil {
      // The deltas are the output; the follower's joins and resyncs would only interleave (the
      // watch reports losing the leader and rejoining it itself).
      TandemLogging.bootstrapStandard(level: .error)
    }
    try blockingAsync { [configuration] in
      let follower = try await joinLeader(configuration)
      do {
        try await watch.run(follower, output: { try writeLine($0) }, status: printError)
      } catch {
        await follower.stop()
        throw error
      }
      await follower.stop()
    }
  })
