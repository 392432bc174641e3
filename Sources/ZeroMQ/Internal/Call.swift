import CZeroMQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs one libzmq call that returns a negative number on failure: retries while it fails with
/// `EINTR`, throws a ``ZMQError`` naming `call` for any other failure, and returns the result.
@inlinable
@inline(__always)
func zmqCall(_ call: @autoclosure () -> String, _ body: () -> Int32) throws(ZMQError) -> Int32 {
  while true {
    let result = body()
    if result >= 0 { return result }
    let code = zmq_errno()
    if code == EINTR { continue }
    throw ZMQError(code: ZMQError.Code(rawValue: code), call: call())
  }
}

/// Like ``zmqCall(_:_:)``, but `EAGAIN` (the call would block, or timed out) returns `nil`
/// instead of throwing: the non-blocking and timed send and receive paths use it.
@inlinable
@inline(__always)
func zmqCallUnlessWouldBlock(
  _ call: @autoclosure () -> String, _ body: () -> Int32
)
  throws(ZMQError) -> Int32?
{
  while true {
    let result = body()
    if result >= 0 { return result }
    let code = zmq_errno()
    if code == EINTR { continue }
    if code == EAGAIN { return nil }
    throw ZMQError(code: ZMQError.Code(rawValue: code), call: call())
  }
}

/// Like ``zmqCall(_:_:)`` for the calls that return a pointer, `nil` on failure.
@inlinable
func zmqPointerCall(
  _ call: @autoclosure () -> String, _ body: () -> UnsafeMutableRawPointer?
)
  throws(ZMQError) -> UnsafeMutableRawPointer
{
  while true {
    if let pointer = body() { return pointer }
    let code = zmq_errno()
    if code == EINTR { continue }
    throw ZMQError(code: ZMQError.Code(rawValue: code), call: call())
  }
}
