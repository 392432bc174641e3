/// The largest action a leader accepts, as its `WELCOME` announces them: a follower must not
/// send more, or the leader refuses the request (or ZeroMQ closes the connection), and the
/// follower would send it again at every resend.
public struct ProtocolLimits: Sendable, Equatable {
  /// The most bytes of an action's payload (its JSON), the leader's largest message.
  public var maximumPayloadBytes: UInt64
  /// The most bytes of UTF-8 in an action's tag.
  public var maximumTagBytes: UInt64
  /// The most bytes of UTF-8 in a client id.
  public var maximumClientIDBytes: UInt64

  public init(maximumPayloadBytes: UInt64, maximumTagBytes: UInt64, maximumClientIDBytes: UInt64) {
    self.maximumPayloadBytes = maximumPayloadBytes
    self.maximumTagBytes = maximumTagBytes
    self.maximumClientIDBytes = maximumClientIDBytes
  }

  /// What every leader of this protocol version accepts at least: 1 MiB payloads, and tags and
  /// client ids of 256 bytes (the frame reader's limits).
  public static let standard = ProtocolLimits(
    maximumPayloadBytes: 1 << 20, maximumTagBytes: UInt64(FrameReader.textBytes),
    maximumClientIDBytes: UInt64(FrameReader.clientIDBytes.upperBound))
}
