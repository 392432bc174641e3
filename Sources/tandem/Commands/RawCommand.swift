import CommandLineKit
import TandemCLI

/// `tandem raw`: frames as given, the reply as received; for debugging the protocol.
let rawCommand = Command(
  name: "raw", summary: CommandHelp.raw.summary, usage: CommandHelp.raw.usage,
  run: { words in
    let options = try RawOptions(arguments: words)
    for frame in try ControlClient(options.connection).raw(options.frames) {
      try writeLine(RawFrames.describe(frame))
    }
  })
