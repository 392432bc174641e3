import CommandLineKit
import TandemCLI

/// `tandem raw`: frames as given, the reply as received; for debugging the protocol.
let rawCommand = Command(
  name: "raw", summary: CommandHelp.raw.summary, usage: CommandHelp.raw.usage,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let connection = try LeaderConnection(&arguments)
    try arguments.finish(allowingPositionals: .max)
    guard !arguments.positionals.isEmpty else {
      throw UsageError("give at least one FRAME, e.g. PING cli x:0000000000000000")
    }
    var frames: [[UInt8]] = []
    for word in arguments.positionals {
      guard let frame = RawFrames.frame(word) else {
        throw UsageError("'\(word)' is not x: followed by an even number of hex digits")
      }
      frames.append(frame)
    }
    for frame in try ControlClient(connection).raw(frames) {
      writeLine(RawFrames.describe(frame))
    }
  })
