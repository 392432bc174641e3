/// Runs `body`, turning any error it throws into a failure with status 69 (EX_UNAVAILABLE):
/// for starting a service that cannot bind its address.
///
/// ```swift
/// let server = try unavailable { try MetricsServer(serving: registries, at: address) }
/// ```
public func unavailable<Value>(_ body: () throws -> Value) throws(CommandFailure) -> Value {
  do {
    return try body()
  } catch {
    throw CommandFailure(.unavailable, "\(error)")
  }
}
