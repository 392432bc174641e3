import CommandLineKit
import Foundation

extension CommandLineArguments {
  /// The value of `--name`, a directory that exists, or `defaultValue` when absent: where a
  /// benchmark puts its scratch files (a path that does not exist would be created, or the
  /// files would go to the root for an empty one).
  mutating func directory(_ name: String, default defaultValue: String) throws(UsageError) -> String
  {
    guard let path = option(name) else { return defaultValue }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw UsageError("--\(name) takes a directory that exists, not '\(path)'")
    }
    return path
  }
}
