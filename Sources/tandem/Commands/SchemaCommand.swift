import CommandLineKit
import Foundation
import TandemCLI
import TandemProtocol

/// `tandem schema diff OLD NEW`: whether two builds' schemas (each printed by the build's
/// `--print-schema`) allow a rolling upgrade, in which order, and why not.
let schemaDiffCommand = Command(
  name: "diff",
  summary: "Compare two builds' schemas: is a rolling upgrade from OLD to NEW safe, and how",
  usage: """
    OLD NEW [--order followers-first|leader-first]

    OLD and NEW are files holding the schemas the two builds print with --print-schema (for
    example `counter --print-schema > new.json`). Prints, for each mix of the two builds a
    rolling upgrade passes through, whether it is compatible and every conflict (the field
    path and the two shapes), then which orders are safe.

      --order ORDER   require this order: followers-first (every follower replaced before the
                      leader) or leader-first

    Exit status:
      0   a rolling upgrade is safe (in the --order given, else in some order)
      1   it is not: the report names each conflict
      64  the command was called wrongly (see the usage above)
      65  a file does not hold a schema
      66  a file does not exist
      74  the output could not be written
    """,
  run: { words in
    var arguments = try CommandLineArguments(words)
    let order = try arguments.option("order").map { text throws(UsageError) in
      guard let order = SchemaDiff.Order(rawValue: text) else {
        throw UsageError("--order is followers-first or leader-first, not '\(text)'")
      }
      return order
    }
    let paths = arguments.positionals
    try arguments.finish(allowingPositionals: 2)
    guard paths.count == 2 else {
      throw UsageError("give two schema files, OLD and NEW")
    }
    let diff = SchemaDiff(old: try readSchema(paths[0]), new: try readSchema(paths[1]))
    try writeLine(diff.report)
    let safe = order.map(diff.isSafe) ?? !diff.safeOrders.isEmpty
    if !safe {
      throw CommandFailure(
        .failure,
        order.map { "a rolling upgrade \($0.rawValue) is not safe" }
          ?? "no rolling upgrade is safe")
    }
  }
)

let schemaCommand = Command(
  name: "schema",
  summary: "Compare builds' state and action schemas before a rolling upgrade",
  subcommands: CommandGroup(
    name: "tandem schema",
    summary: "Compare the schemas builds print with --print-schema.",
    commands: [schemaDiffCommand])
)

/// The schema in the file at `path`.
private func readSchema(_ path: String) throws -> ApplicationSchema {
  guard let data = FileManager.default.contents(atPath: path) else {
    throw CommandFailure(.notFound, "no file at \(path): check the path")
  }
  do {
    return try ApplicationSchema(bytes: Array(data))
  } catch {
    throw CommandFailure(
      .dataError, "\(path) does not hold a schema printed by --print-schema: \(error)")
  }
}
