import Testing

@testable import TandemProtocol
@testable import TandemSync

@Suite("Wire format of DISPATCH")
struct DispatchWireFormatTests {
  static func bytes(_ parts: [Frame]) -> Frame { Array(parts.joined()) }

  static let action = ForwardedAction(
    client: "web-1", number: 0x0102, generation: 0x0304, tag: "bookmark.add",
    payload: Array(#"{"id":7}"#.utf8))

  /// The body of `action`: number, generation, the lengths 5 and 12, the client id, the tag and
  /// the payload.
  static let body: Frame = bytes([
    Frame(bigEndian: 0x0102), Frame(bigEndian: 0x0304), [0, 5, 0, 12], Array("web-1".utf8),
    Array("bookmark.add".utf8), Array(#"{"id":7}"#.utf8),
  ])

  @Test func anActionIsACommandAndOneBodyFrame() throws {
    let frames = ControlRequest.dispatch(Self.action).frames
    #expect(frames == [Array("DISPATCH".utf8), Self.body])
    #expect(try ControlRequest(frames: frames) == .dispatch(Self.action))
    let quiet = ControlRequest.dispatchQuietly(Self.action).frames
    #expect(quiet == [Array("DISPATCH-QUIET".utf8), Self.body])
    #expect(try ControlRequest(frames: quiet) == .dispatchQuietly(Self.action))
  }

  @Test func theTextsMayBeAtTheirLimitsAndTheTagAndPayloadEmpty() throws {
    let longest = ForwardedAction(
      client: String(repeating: "c", count: 256), number: 1, generation: 0,
      tag: String(repeating: "t", count: 256), payload: Array("{}".utf8))
    let frames = ControlRequest.dispatch(longest).frames
    #expect(frames[1].count == DispatchBody.maximumOverheadBytes + 2)
    #expect(try ControlRequest(frames: frames) == .dispatch(longest))
    let bare = ForwardedAction(client: "é", number: 1, tag: "", payload: [])
    #expect(try ControlRequest(frames: ControlRequest.dispatch(bare).frames) == .dispatch(bare))
  }

  /// Bodies that break one rule each, with the violation each is refused with (after the
  /// command).
  static func malformedBodies() -> [(body: Frame, message: String)] {
    let integers = Array(body.prefix(16))
    let last: UInt64 = .max
    return [
      (Array(body.prefix(19)), "the action has 19 bytes, fewer than 20"),
      ([], "the action has 0 bytes, fewer than 20"),
      (bytes([Frame(bigEndian: 0), Array(body.dropFirst(8))]), "number is 0"),
      (
        bytes([Frame(bigEndian: last), Array(body.dropFirst(8))]),
        "number must be below 2^64 - 1, got 18446744073709551615"
      ),
      (bytes([integers, [0, 0, 0, 1], Array("t{}".utf8)]), "client is empty"),
      (
        bytes([integers, [1, 1, 0, 0], Frame(repeating: 0x63, count: 257)]),
        "client is longer than 256 bytes"
      ),
      (
        bytes([integers, [0, 1, 1, 1], Frame(repeating: 0x63, count: 258)]),
        "tag is longer than 256 bytes"
      ),
      (
        bytes([integers, [0, 5, 0, 12], Array("web-1bookmark.ad".utf8)]),
        "the client id and tag need 17 bytes, 16 remain"
      ),
      (
        bytes([integers, [0, 2, 0, 1], [0xC3, 0x28], Array("t{}".utf8)]),
        "client is not valid UTF-8"
      ),
      (
        bytes([integers, [0, 1, 0, 2], Array("c".utf8), [0xC3, 0x28], Array("{}".utf8)]),
        "tag is not valid UTF-8"
      ),
    ]
  }

  @Test func aMalformedBodyIsAViolation() {
    for (body, message) in Self.malformedBodies() {
      for command in ["DISPATCH", "DISPATCH-QUIET"] {
        let expected = ProtocolViolation("\(command): \(message)")
        #expect(throws: expected) { try ControlRequest(frames: [Array(command.utf8), body]) }
      }
    }
  }

  @Test func aMissingOrExtraFrameIsAViolation() {
    #expect(throws: ProtocolViolation("DISPATCH: missing action frame")) {
      try ControlRequest(frames: [Array("DISPATCH".utf8)])
    }
    #expect(throws: ProtocolViolation("DISPATCH-QUIET: 1 unexpected extra frame(s)")) {
      try ControlRequest(frames: [Array("DISPATCH-QUIET".utf8), Self.body, Array("{}".utf8)])
    }
  }

  @Test func theControlSocketTakesTheLargestPayloadWithTheLongestTexts() {
    var configuration = LeaderConfiguration()
    configuration.maxMessageSize = 1024
    #expect(LeaderEngine<Int>.controlFrameLimit(configuration) == 1024 + 20 + 256 + 256)
    configuration.maxMessageSize = -1
    #expect(LeaderEngine<Int>.controlFrameLimit(configuration) == -1)
  }

  @Test(.timeLimit(.minutes(1)))
  func aPayloadAtTheAnnouncedLimitWithTheLongestTextsReachesTheLeader() async throws {
    let leader = try await makeLeader { $0.maxMessageSize = 1024 }
    let client = RawClient(endpoint: leader.controlEndpoint)
    defer { client.close() }
    let payload = Array(#"{"padding":"\#(String(repeating: "x", count: 1010))"}"#.utf8)
    #expect(payload.count == 1024)
    // An unregistered tag of 256 bytes: the leader reads the action and refuses its tag, which
    // it could not if ZeroMQ had closed the connection for the frame's size.
    let action = ForwardedAction(
      client: String(repeating: "c", count: 256), number: 1,
      tag: String(repeating: "t", count: 256), payload: payload)
    let reply = try client.request(.dispatch(action))
    guard case .reject(_, 1, let rejection) = reply else {
      Issue.record("expected REJECT, got \(reply)")
      await leader.stop()
      return
    }
    #expect(rejection.code == .unknownTag)
    await leader.stop()
  }
}
