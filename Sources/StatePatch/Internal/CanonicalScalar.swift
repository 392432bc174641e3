#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The canonical JSON of the standard library's scalar types, found by comparing metatypes so
/// that the check costs a few pointer comparisons rather than dynamic casts.
enum CanonicalScalar {
  /// The JSON of a finite double; -0 becomes 0 so that `==` values share one spelling.
  static func json(_ value: Double) throws(NonFiniteNumber) -> JSONValue {
    guard value.isFinite else { throw NonFiniteNumber(value: value) }
    return .double(value == 0 ? 0 : value)
  }

  /// The JSON of an unsigned 64-bit integer: `int` when it fits, `uint` above `Int64.max`.
  static func json(_ value: UInt64) -> JSONValue {
    value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
  }

  /// The JSON of `value` if it is a scalar (or `Data`), else nil.
  static func json<T>(of value: T) throws(NonFiniteNumber) -> JSONValue? {
    let type = T.self
    if type == String.self { return .string(value as! String) }
    if type == Int.self { return .int(Int64(value as! Int)) }
    if type == Bool.self { return .bool(value as! Bool) }
    if type == Double.self { return try json(value as! Double) }
    if type == Int64.self { return .int(value as! Int64) }
    if type == Int32.self { return .int(Int64(value as! Int32)) }
    if type == Int16.self { return .int(Int64(value as! Int16)) }
    if type == Int8.self { return .int(Int64(value as! Int8)) }
    if type == UInt.self { return json(UInt64(value as! UInt)) }
    if type == UInt64.self { return json(value as! UInt64) }
    if type == UInt32.self { return .int(Int64(value as! UInt32)) }
    if type == UInt16.self { return .int(Int64(value as! UInt16)) }
    if type == UInt8.self { return .int(Int64(value as! UInt8)) }
    if type == Float.self { return try json(Double(value as! Float)) }
    if type == Data.self { return .string((value as! Data).base64EncodedString()) }
    return nil
  }
}

/// A NaN or infinity met while encoding; the session turns it into a ``StateEncodingError``.
struct NonFiniteNumber: Error {
  var value: Double
}
