import CZeroMQ

/// A typed socket option: the libzmq constant and how its value is encoded.
///
/// Each option is a static member named after what it does; its doc comment names the libzmq
/// constant. Read and write them with ``Socket/get(_:)`` and ``Socket/set(_:_:)``:
///
/// ```swift
/// try socket.set(.linger, .zero)
/// try socket.set(.sendHighWaterMark, 10_000)
/// try socket.set(.routingID, Array("worker-1".utf8))
/// let endpoint = try socket.get(.lastEndpoint)
/// ```
///
/// Durations are sent to libzmq in whole milliseconds; where libzmq gives `-1` a meaning
/// ("forever" for ``linger`` and the timeouts), a negative duration stands for it.
public struct SocketOption<Value>: Sendable {
  /// The libzmq constant, such as `ZMQ_LINGER`.
  public let code: Int32
  /// The libzmq constant's name, for error messages.
  public let name: String
  let encode: @Sendable (Value) -> [UInt8]
  /// Reads the value from the bytes libzmq wrote (no more than ``capacity``).
  let decode: @Sendable (UnsafeRawBufferPointer) -> Value
  /// The largest value libzmq can return for this option, in bytes.
  let capacity: Int

  init(
    _ code: Int32, _ name: String, capacity: Int,
    encode: @escaping @Sendable (Value) -> [UInt8],
    decode: @escaping @Sendable (UnsafeRawBufferPointer) -> Value
  ) {
    self.code = code
    self.name = name
    self.capacity = capacity
    self.encode = encode
    self.decode = decode
  }
}

extension Socket {
  /// Sets `option` to `value` (`zmq_setsockopt`).
  public func set<Value>(_ option: SocketOption<Value>, _ value: Value) throws(ZMQError) {
    let handle = handle
    let bytes = option.encode(value)
    _ = try zmqCall("zmq_setsockopt(\(option.name))") {
      bytes.withUnsafeBytes { zmq_setsockopt(handle, option.code, $0.baseAddress, $0.count) }
    }
  }

  /// The current value of `option` (`zmq_getsockopt`), read through a buffer on the stack: the
  /// I/O loop asks for ``SocketOption/events`` on every turn.
  public func get<Value>(_ option: SocketOption<Value>) throws(ZMQError) -> Value {
    let handle = handle
    return try withUnsafeTemporaryAllocation(byteCount: option.capacity, alignment: 8) {
      buffer throws(ZMQError) in
      buffer.initializeMemory(as: UInt8.self, repeating: 0)
      var size = option.capacity
      _ = try zmqCall("zmq_getsockopt(\(option.name))") {
        zmq_getsockopt(handle, option.code, buffer.baseAddress, &size)
      }
      return option.decode(UnsafeRawBufferPointer(rebasing: buffer.prefix(min(size, buffer.count))))
    }
  }
}

// MARK: - Encodings

extension SocketOption where Value == Int32 {
  static func int32(_ code: Int32, _ name: String) -> Self {
    Self(code, name, capacity: 4, encode: encodeInteger, decode: { decodeInteger($0) })
  }
}

extension SocketOption where Value == Int64 {
  static func int64(_ code: Int32, _ name: String) -> Self {
    Self(code, name, capacity: 8, encode: encodeInteger, decode: { decodeInteger($0) })
  }
}

extension SocketOption where Value == Bool {
  static func bool(_ code: Int32, _ name: String) -> Self {
    Self(
      code, name, capacity: 4, encode: { encodeInteger(Int32($0 ? 1 : 0)) },
      decode: { decodeInteger($0) as Int32 != 0 })
  }
}

extension SocketOption where Value == Duration {
  /// A duration option in whole milliseconds (`int`); a negative duration is `-1`.
  static func milliseconds(_ code: Int32, _ name: String) -> Self {
    Self(
      code, name, capacity: 4, encode: { encodeInteger(Int32(milliseconds: $0)) },
      decode: { .milliseconds(decodeInteger($0) as Int32) })
  }
}

extension SocketOption where Value == [UInt8] {
  static func bytes(_ code: Int32, _ name: String, capacity: Int = 256) -> Self {
    Self(code, name, capacity: capacity, encode: { $0 }, decode: { Array($0) })
  }
}

extension SocketOption where Value == String {
  static func string(_ code: Int32, _ name: String, capacity: Int = 1024) -> Self {
    Self(
      code, name, capacity: capacity, encode: { Array($0.utf8) },
      decode: { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      })
  }
}

extension SocketOption where Value == CurveKey {
  static func curveKey(_ code: Int32, _ name: String) -> Self {
    Self(
      code, name, capacity: 32, encode: { $0.bytes },
      decode: { CurveKey(bytes: Array($0)) ?? .zero })
  }
}

private func encodeInteger<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
  withUnsafeBytes(of: value) { Array($0) }
}

private func decodeInteger<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer) -> T {
  var value = T.zero
  withUnsafeMutableBytes(of: &value) { target in
    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(target.count)))
  }
  return value
}

extension Int32 {
  /// Whole milliseconds of `duration`, clamped to `Int32`; any negative duration is `-1`.
  init(milliseconds duration: Duration) {
    if duration < .zero {
      self = -1
      return
    }
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    guard !milliseconds.overflow else {
      self = .max
      return
    }
    let total = milliseconds.partialValue.addingReportingOverflow(
      attoseconds / 1_000_000_000_000_000)
    self = total.overflow ? .max : Int32(clamping: total.partialValue)
  }
}
