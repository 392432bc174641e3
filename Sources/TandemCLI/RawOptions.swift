import CommandLineKit

/// The options of `tandem raw`: the leader and the frames to send, one per word after the
/// options (``RawFrames/frame(_:)``). A frame that starts with `--` follows a bare `--`, which
/// ends the options.
public struct RawOptions: Sendable, Equatable {
  /// The leader and how long to wait for it.
  public var connection: LeaderConnection
  /// The frames of the one message to send, at least one.
  public var frames: [[UInt8]]

  /// Reads the options from the command's words; `environment` stands in for `TANDEM_LEADER`.
  public init(arguments words: [String], environment: String?? = nil) throws(UsageError) {
    var arguments = try CommandLineArguments(words)
    connection = try LeaderConnection(&arguments, environment: environment)
    try arguments.finish(allowingPositionals: .max)
    guard !arguments.positionals.isEmpty else {
      throw UsageError("give at least one FRAME, e.g. PING cli x:0000000000000000")
    }
    frames = []
    for word in arguments.positionals {
      guard let frame = RawFrames.frame(word) else {
        throw UsageError("'\(word)' is not x: followed by an even number of hex digits")
      }
      frames.append(frame)
    }
  }
}
