import CommandLineKit
import TandemCLI

/// `tandem snapshot`: the leader's state, or a part of it.
let snapshotCommand = Command(
  name: "snapshot", summary: CommandHelp.snapshot.summary, usage: CommandHelp.snapshot.usage,
  run: { words in
    let options = try ReadOptions(arguments: words)
    let snapshot = try ControlClient(options.connection).snapshot()
    let text = try SnapshotReport.render(snapshot, path: options.path, json: options.json)
    printError("epoch \(snapshot.epoch) sequence \(snapshot.sequence)")
    try writeLine(text)
  })
