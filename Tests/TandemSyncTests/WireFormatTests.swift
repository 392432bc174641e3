import Testing

@testable import TandemProtocol
@testable import TandemSync

@Suite("Wire format")
struct WireFormatTests {
  let epoch = Epoch(rawValue: 0x0102_0304_0506_0708)
  let delta = Delta(
    sequence: 42, origin: Origin(client: "web-1", number: 7), tag: "bookmark.add",
    patch: Array(#"[{"op":"add","path":"/a","value":1}]"#.utf8))

  @Test func integersAreEightByteBigEndian() {
    #expect(Frame(bigEndian: 0x0102_0304_0506_0708) == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(Frame(bigEndian: 1) == [0, 0, 0, 0, 0, 0, 0, 1])
  }

  @Test func updateMessagesRoundTrip() throws {
    let messages: [UpdateMessage] = [
      .delta(epoch, delta), .heartbeat(epoch, sequence: 9, stateHash: 0xFFFF_0000_1234_5678),
      .deltas(epoch, [delta, Delta(sequence: 43, origin: .leader, tag: "x", patch: [])]),
      .bye(epoch, sequence: 3),
    ]
    for message in messages {
      #expect(try UpdateMessage(frames: message.frames) == message)
    }
  }

  /// Text frames are read with `String(validUTF8:)`, which must accept and refuse what
  /// `String(validating:as:)` does: among others a truncated sequence whose repair (one U+FFFD)
  /// is as long as the input, a surrogate, an overlong form and a NUL byte.
  @Test func textFramesAreValidatedAsTheStandardLibraryDoes() {
    let samples: [[UInt8]] = [
      [], Array("web-1".utf8), Array("données-über-😀".utf8),
      Array(String(repeating: "é", count: 40).utf8),
      [0x61, 0x00, 0x62], [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x41], [0xED, 0xA0, 0x80],
      [0xC0, 0xAF], [0xE2, 0x82], [0xFF], [0x80, 0x61], [0xF4, 0x90, 0x80, 0x80],
      Array("abc".utf8) + [0xEF, 0xBF, 0xBD],
      Array(String(repeating: "x", count: 20).utf8) + [0xC3],
    ]
    for bytes in samples {
      bytes.withUnsafeBufferPointer { buffer in
        #expect(String(validUTF8: buffer) == String(validating: buffer, as: UTF8.self), "\(bytes)")
      }
    }
  }

  /// `parts` back to back.
  static func bytes(_ parts: [Frame]) -> Frame { Array(parts.joined()) }

  @Test func deltaFramesAreInTheDocumentedOrder() {
    let frames = UpdateMessage.delta(epoch, delta).frames
    let head = Self.bytes([
      Frame(bigEndian: 42), Frame(bigEndian: 1), Frame(bigEndian: 7),
      Frame(bigEndian: delta.actions[0].origin.generation), [0, 5, 0, 0, 0, 12],
      Array("web-1".utf8), Array("bookmark.add".utf8),
    ])
    #expect(frames.count == 4)
    #expect(frames[0] == Array("DELTA".utf8))
    #expect(frames[1] == Frame(bigEndian: epoch.rawValue))
    #expect(frames[2] == head)
    #expect(frames[3] == delta.patch)
  }

  @Test func aHeadHoldsEachActionsOriginKeyAndTag() throws {
    let origin = Origin(client: "web-1", number: 0x0102, generation: 0x0304, key: "worker-1")
    let several = Delta(
      sequence: 12,
      actions: [
        AppliedAction(origin: origin, tag: "bookmark.add"), AppliedAction(origin: .leader, tag: ""),
      ],
      patch: Array("[]".utf8))
    let head = Self.bytes([
      Frame(bigEndian: 12), Frame(bigEndian: 2), Frame(bigEndian: 0x0102),
      Frame(bigEndian: 0x0304), [0, 5, 0, 8, 0, 12], Array("web-1".utf8),
      Array("worker-1".utf8), Array("bookmark.add".utf8), Frame(repeating: 0, count: 22),
    ])
    let frames = UpdateMessage.delta(epoch, several).frames
    #expect(frames.count == 4)
    #expect(frames[2] == head)
    #expect(try UpdateMessage(frames: frames) == .delta(epoch, several))
  }

  /// A head with one action from `web-1`: sequence 5, count 1, number 7, generation 0, then
  /// the lengths 5, 0, 1 and the texts `web-1` and `t`.
  static let head: Frame = bytes([
    Frame(bigEndian: 5), Frame(bigEndian: 1), Frame(bigEndian: 7), Frame(bigEndian: 0),
    [0, 5, 0, 0, 0, 1], Array("web-1t".utf8),
  ])

  /// Heads that break one rule each, with the violation each is refused with.
  static func malformedHeads() -> [(head: Frame, message: String)] {
    let top: Frame = Array(head.prefix(32))
    let last: UInt64 = .max
    return [
      (Array(head.prefix(15)), "DELTA: the head has 15 bytes, fewer than 16"),
      (
        bytes([Frame(bigEndian: last), Array(head.dropFirst(8))]),
        "DELTA: sequence must be below 2^64 - 1, got 18446744073709551615"
      ),
      (
        bytes([Frame(bigEndian: 5), Frame(bigEndian: 0), Array(head.dropFirst(16))]),
        "DELTA: a delta at sequence 5 cannot apply 0 actions"
      ),
      (
        bytes([Frame(bigEndian: 5), Frame(bigEndian: 2), Array(head.dropFirst(16))]),
        "DELTA: action count 2 exceeds the head's 44 bytes"
      ),
      (Array(head.dropLast()), "DELTA: action 1 of 1 is cut short"),
      (bytes([head, [0]]), "DELTA: 1 unexpected byte(s) after the last action"),
      (
        bytes([Array(head.prefix(16)), Frame(bigEndian: last), Array(head.dropFirst(24))]),
        "DELTA: number must be below 2^64 - 1, got 18446744073709551615"
      ),
      (bytes([top, [0, 2, 0, 0, 0, 1, 0xC3, 0x28, 0x74]]), "DELTA: origin is not valid UTF-8"),
      (
        bytes([top, [0, 0, 0, 0, 1, 1], Frame(repeating: 0x61, count: 257)]),
        "DELTA: tag is longer than 256 bytes"
      ),
    ]
  }

  @Test func aMalformedHeadIsAViolation() {
    var frames = UpdateMessage.delta(epoch, delta).frames
    frames[2] = Self.head
    #expect(throws: Never.self) { try UpdateMessage(frames: frames) }
    for (head, message) in Self.malformedHeads() {
      frames[2] = head
      #expect(throws: ProtocolViolation(message)) { try UpdateMessage(frames: frames) }
    }
  }

  @Test func aDeltaOfSeveralActionsCarriesEachOnesOriginAndTag() throws {
    let several = Delta(
      sequence: 12,
      actions: [
        AppliedAction(
          origin: Origin(client: "web-1", number: 8, generation: 3), tag: "bookmark.add"),
        AppliedAction(origin: .leader, tag: "tick"),
        AppliedAction(
          origin: Origin(client: "worker", number: 2, key: "worker-key"), tag: "repo.loaded"),
      ],
      patch: Array("[]".utf8))
    let frames = UpdateMessage.delta(epoch, several).frames
    #expect(frames.count == 4)
    #expect(try UpdateMessage(frames: frames) == .delta(epoch, several))
    #expect(several.firstSequence == 10)
    #expect(several.sequencedActions.map(\.sequence) == [10, 11, 12])
    let reply = ControlReply.deltas(epoch, [several, delta])
    #expect(try ControlReply(frames: reply.frames) == reply)
  }

  @Test func deltasFramesAreACountThenOneFrameOfEveryDelta() throws {
    let next = Delta(sequence: 43, origin: .leader, tag: "x", patch: Array("[]".utf8))
    let frames = UpdateMessage.deltas(epoch, [delta, next]).frames
    #expect(frames.count == 4)
    #expect(frames[0] == Array("DELTAS".utf8))
    #expect(frames[2] == Frame(bigEndian: 2))
    // Each delta: its head's length, its head (as DELTA's frame 2), its patch's length, its
    // patch (DELTA's frame 3).
    var body: Frame = []
    for one in [delta, next] {
      let single = UpdateMessage.delta(epoch, one).frames
      for part in single[2...] {
        body += Swift.withUnsafeBytes(of: UInt32(part.count).bigEndian) { Array($0) } + part
      }
    }
    #expect(frames[3] == body)
    #expect(try UpdateMessage(frames: frames) == .deltas(epoch, [delta, next]))
  }

  @Test func aDeltasFrameThatDoesNotHoldItsCountIsRefused() {
    let next = Delta(sequence: 43, origin: .leader, tag: "x", patch: Array("[]".utf8))
    let frames = UpdateMessage.deltas(epoch, [delta, next]).frames
    var damaged: [[Frame]] = []
    var more = frames
    more[2] = Frame(bigEndian: 3)  // a count above what the frame holds
    damaged.append(more)
    var fewer = frames
    fewer[2] = Frame(bigEndian: 1)  // bytes after the last delta
    damaged.append(fewer)
    var cut = frames
    cut[3].removeLast()  // the last patch reaches beyond the frame
    damaged.append(cut)
    var longHead = frames
    longHead[3][3] = 0xFF  // the first head's length reaches beyond the frame
    damaged.append(longHead)
    var badHead = frames
    badHead[3][4 + 15] = 0  // the first head's action count is 0
    damaged.append(badHead)
    damaged.append(Array(frames.dropLast()))
    damaged.append(frames + [[]])
    for wrong in damaged {
      #expect(throws: ProtocolViolation.self) { try UpdateMessage(frames: wrong) }
    }
  }

  @Test func aDeltaWithAFrameMissingOrTooManyIsRefused() {
    let frames = UpdateMessage.delta(epoch, delta).frames
    for wrong in [Array(frames.dropLast()), frames + [Array("[]".utf8)]] {
      #expect(throws: ProtocolViolation.self) { try UpdateMessage(frames: wrong) }
    }
  }

  @Test func controlRequestsRoundTrip() throws {
    let requests: [ControlRequest] = [
      .hello(version: ControlRequest.version, client: "c1", fingerprint: "abc"), .snapshot,
      .catchUp(epoch, from: 10),
      .dispatch(ForwardedAction(client: "c1", number: 3, tag: "t", payload: Array("{}".utf8))),
      .dispatchQuietly(
        ForwardedAction(client: "c1", number: 4, tag: "t", payload: Array("[]".utf8))),
      .ping(client: "c1", sequence: 77), .stats, .reloadKeys, .stepDown,
    ]
    for request in requests {
      #expect(try ControlRequest(frames: request.frames) == request)
    }
  }

  @Test func controlRepliesRoundTrip() throws {
    let replies: [ControlReply] = [
      .welcome(
        epoch, sequence: 5, lastNumber: 2, forgottenThrough: 4, heartbeatMilliseconds: 1000,
        updates: "inproc://u"),
      .welcome(
        epoch, sequence: 5, lastNumber: 2, forgottenThrough: 4, heartbeatMilliseconds: 1000,
        updates: "inproc://u", generation: 77,
        limits: ProtocolLimits(
          maximumPayloadBytes: 1 << 24, maximumTagBytes: 64, maximumClientIDBytes: 128)),
      .state(epoch, sequence: 5, stateHash: 99, document: Array("{}".utf8)),
      .deltas(epoch, [delta, Delta(sequence: 43, origin: .leader, tag: "x", patch: [])]),
      .deltas(epoch, []), .stale(epoch, sequence: 8),
      .ack(client: "c", number: 1, epoch, sequence: 4),
      .reject(client: "c", number: 2, Rejection(code: .unknownTag, message: "no such tag 'x'")),
      .pong(epoch, sequence: 2), .stats(document: Array("{}".utf8)),
      .error(code: .version, message: "speak TSP/3"),
      .redirect(control: "tcp://b:1", updates: "tcp://b:2", fencingEpoch: 3, holder: "b:9"),
      .redirect(control: "", updates: "", fencingEpoch: 0, holder: ""),
      .keys(count: 2, removed: ["old", "lost"]), .handingOver(holder: "a:41:x", fencingEpoch: 7),
      .error(code: .noLease, message: "this leader holds no lease"),
    ]
    for reply in replies {
      #expect(try ControlReply(frames: reply.frames) == reply)
    }
  }

  @Test(arguments: [
    [[UInt8]](),
    [Array("NOPE".utf8)],
    [Array("DELTA".utf8), [1, 2, 3]],
    [Array("HEARTBEAT".utf8), Frame(bigEndian: 1), Frame(bigEndian: 2)],
    [Array("BYE".utf8), Frame(bigEndian: 1), Frame(bigEndian: 2), []],
    [[0xFF, 0x00]],
  ])
  func malformedUpdatesAreViolations(frames: [[UInt8]]) {
    #expect(throws: ProtocolViolation.self) { try UpdateMessage(frames: frames) }
  }

  @Test func aSequenceOrNumberWithNoNextIsAViolation() {
    let last = UInt64.max
    let updates: [UpdateMessage] = [
      .delta(epoch, Delta(sequence: last, origin: .leader, tag: "t", patch: [])),
      .heartbeat(epoch, sequence: last, stateHash: 1),
    ]
    for update in updates {
      #expect(throws: ProtocolViolation.self) { try UpdateMessage(frames: update.frames) }
    }
    let replies: [ControlReply] = [
      .welcome(
        epoch, sequence: 1, lastNumber: last, forgottenThrough: 0, heartbeatMilliseconds: 1,
        updates: "u"),
      .welcome(
        epoch, sequence: 1, lastNumber: 0, forgottenThrough: last, heartbeatMilliseconds: 1,
        updates: "u"),
      .state(epoch, sequence: last, stateHash: 1, document: []),
      .ack(client: "c", number: last, epoch, sequence: 4),
    ]
    for reply in replies {
      #expect(throws: ProtocolViolation.self) { try ControlReply(frames: reply.frames) }
    }
    let action = ForwardedAction(client: "c", number: last, tag: "t", payload: [])
    #expect(throws: ProtocolViolation.self) {
      try ControlRequest(frames: ControlRequest.dispatch(action).frames)
    }
  }

  @Test func malformedRequestsNameTheProblem() {
    let truncated = Array(ControlRequest.catchUp(epoch, from: 1).frames.dropLast())
    #expect(throws: ProtocolViolation("CATCHUP: missing from frame")) {
      try ControlRequest(frames: truncated)
    }
    var badClient = ControlRequest.hello(version: "TSP/3", client: "c", fingerprint: "f").frames
    badClient[2] = [0xC3, 0x28]
    #expect(throws: ProtocolViolation("HELLO: client is not valid UTF-8")) {
      try ControlRequest(frames: badClient)
    }
    let noClient = ControlRequest.ping(client: "", sequence: 1).frames
    #expect(throws: ProtocolViolation("PING: client is empty")) {
      try ControlRequest(frames: noClient)
    }
    let numberZero = ControlRequest.dispatch(
      ForwardedAction(client: "c", number: 0, tag: "t", payload: Array("{}".utf8))
    ).frames
    #expect(throws: ProtocolViolation("DISPATCH: number is 0")) {
      try ControlRequest(frames: numberZero)
    }
  }

  @Test func aDeltasCountBeyondTheFramesIsAViolation() {
    var frames = ControlReply.deltas(epoch, [delta]).frames
    frames[2] = Frame(bigEndian: .max)
    #expect(throws: ProtocolViolation.self) { try ControlReply(frames: frames) }
  }
}
