/// A ZAP request (ZeroMQ RFC 27): what libzmq asks the authentication handler about a peer
/// that is completing its handshake.
///
/// | frame | content |
/// |---|---|
/// | 0 | version, `1.0` |
/// | 1 | request id (echoed in the reply) |
/// | 2 | domain (``SocketOption/zapDomain``) |
/// | 3 | the peer's address |
/// | 4 | the peer's routing id (identity) |
/// | 5 | mechanism: `NULL`, `PLAIN` or `CURVE` |
/// | 6... | credentials: for `CURVE`, the client's 32-byte long-term public key |
public struct ZAPRequest: Sendable, Equatable {
  /// The only version RFC 27 defines.
  public static let version = "1.0"
  /// The endpoint libzmq sends requests to, in each context.
  public static let endpoint = Endpoint.inproc("zeromq.zap.01")

  public var requestID: [UInt8]
  public var domain: String
  public var address: String
  public var identity: [UInt8]
  public var mechanism: String
  public var credentials: [[UInt8]]

  public init(
    requestID: [UInt8], domain: String, address: String, identity: [UInt8], mechanism: String,
    credentials: [[UInt8]]
  ) {
    self.requestID = requestID
    self.domain = domain
    self.address = address
    self.identity = identity
    self.mechanism = mechanism
    self.credentials = credentials
  }

  /// Parses a request's frames; `nil` when they are not a version 1.0 request.
  public init?(frames: [[UInt8]]) {
    guard frames.count >= 6, String(decoding: frames[0], as: UTF8.self) == Self.version else {
      return nil
    }
    self.init(
      requestID: frames[1], domain: String(decoding: frames[2], as: UTF8.self),
      address: String(decoding: frames[3], as: UTF8.self), identity: frames[4],
      mechanism: String(decoding: frames[5], as: UTF8.self), credentials: Array(frames[6...]))
  }

  /// The client's public key of a `CURVE` request; `nil` for another mechanism.
  public var curveKey: CurveKey? {
    guard mechanism == "CURVE", credentials.count == 1 else { return nil }
    return CurveKey(bytes: credentials[0])
  }

  /// The request's frames.
  public var frames: [[UInt8]] {
    [
      Array(Self.version.utf8), requestID, Array(domain.utf8), Array(address.utf8), identity,
      Array(mechanism.utf8),
    ] + credentials
  }
}

/// A ZAP reply (ZeroMQ RFC 27): version, request id, status code, status text, user id,
/// metadata. libzmq completes the peer's handshake only on status `200`, and gives every
/// message from it the user id as its `User-Id` property (``Message/userID``).
public struct ZAPReply: Sendable, Equatable {
  /// The reply's status.
  public enum Status: String, Sendable, Equatable {
    /// `200`: the peer is authenticated.
    case success = "200"
    /// `300`: try again later (libzmq treats it as a failure).
    case temporaryError = "300"
    /// `400`: the peer is refused.
    case authenticationFailure = "400"
    /// `500`: the handler could not judge the request (a malformed one).
    case internalError = "500"
  }

  public var requestID: [UInt8]
  public var status: Status
  public var statusText: String
  public var userID: String

  public init(requestID: [UInt8], status: Status, statusText: String, userID: String = "") {
    self.requestID = requestID
    self.status = status
    self.statusText = statusText
    self.userID = userID
  }

  /// The reply's six frames (with empty metadata).
  public var frames: [[UInt8]] {
    [
      Array(ZAPRequest.version.utf8), requestID, Array(status.rawValue.utf8),
      Array(statusText.utf8), Array(userID.utf8), [],
    ]
  }
}
