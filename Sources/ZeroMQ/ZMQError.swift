import CZeroMQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error reported by libzmq: its `errno`, the matching message and the call that failed.
///
/// Every libzmq call in this module goes through one helper that retries on `EINTR` and throws
/// this error otherwise, so a failure always says which call failed and why:
///
/// ```swift
/// do {
///   try socket.bind(.tcp(host: "127.0.0.1", port: 1))
/// } catch {
///   print(error)  // zmq_bind(tcp://127.0.0.1:1): Permission denied (errno 13)
///   if error.code == .addressInUse { ... }
/// }
/// ```
public struct ZMQError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The `errno` value libzmq reported.
  public var code: Code
  /// The libzmq call that failed, with its main argument when that helps (`zmq_bind(tcp://...)`).
  public var call: String

  /// An error with `code` raised by `call`.
  public init(code: Code, call: String) {
    self.code = code
    self.call = call
  }

  /// The message libzmq gives for the code (`zmq_strerror`).
  public var message: String { String(cString: zmq_strerror(code.rawValue)) }

  /// `call: message (errno N)`.
  public var description: String { "\(call): \(message) (errno \(code.rawValue))" }

  /// An `errno` value, with names for the ones callers of libzmq commonly match on.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    public var rawValue: Int32

    /// Wraps a raw `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `EAGAIN`: the operation would block (non-blocking mode, or a send/receive timeout).
    public static let wouldBlock = Code(rawValue: EAGAIN)
    /// `ETERM`: the context was terminated.
    public static let terminated = Code(rawValue: ETERM)
    /// `EHOSTUNREACH`: a ROUTER with `routerMandatory` has no peer with that routing id.
    public static let hostUnreachable = Code(rawValue: EHOSTUNREACH)
    /// `EADDRINUSE`: the address is already bound.
    public static let addressInUse = Code(rawValue: EADDRINUSE)
    /// `EINVAL`: an invalid argument (an unknown option, a malformed endpoint...).
    public static let invalidArgument = Code(rawValue: EINVAL)
    /// `EFSM`: the operation is not allowed in the socket's current state (REQ/REP order).
    public static let wrongState = Code(rawValue: EFSM)
    /// `ENOTSUP`: the socket kind does not support the operation.
    public static let notSupported = Code(rawValue: ENOTSUP)
    /// `EPROTONOSUPPORT`: the endpoint's transport is not supported.
    public static let protocolNotSupported = Code(rawValue: EPROTONOSUPPORT)
    /// `ENOENT`: the endpoint was not bound or connected (unbind, disconnect).
    public static let noSuchEndpoint = Code(rawValue: ENOENT)

    /// The message libzmq gives for the code.
    public var description: String { String(cString: zmq_strerror(rawValue)) }
  }
}
