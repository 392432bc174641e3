#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One action read back from a recording.
public struct RecordedAction: Sendable {
  /// The number of its line in the recording, counted from 1.
  public let line: Int
  /// The tag it was recorded under.
  public let tag: String
  /// When it was recorded.
  public let time: Date
  /// The decoded action.
  public let action: any Action

  /// Creates a recorded action.
  public init(line: Int, tag: String, time: Date, action: any Action) {
    self.line = line
    self.tag = tag
    self.time = time
    self.action = action
  }
}
