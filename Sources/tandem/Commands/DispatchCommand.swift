import CommandLineKit
import TandemCLI

/// `tandem dispatch`: one action, exactly once; prints the acknowledged sequence.
let dispatchCommand = Command(
  name: "dispatch", summary: CommandHelp.dispatch.summary, usage: CommandHelp.dispatch.usage,
  run: { words in
    let options = try DispatchOptions(arguments: words)
    let (_, sequence) = try ControlClient(options.connection).dispatch(
      tag: options.tag, payload: options.payload)
    do throws(CommandFailure) {
      try writeLine(String(sequence))
    } catch {
      throw CommandFailure(
        error.status, "the leader applied the action at sequence \(sequence), but \(error)")
    }
  })
