import Synchronization

/// A connection shared by the threads of one owner, used by one at a time, and opened again
/// when it broke: the lease's command and listening connections.
///
/// `@unchecked Sendable`: the connection (not thread-safe) is only ever touched inside
/// ``use(_:)``, under the lock.
final class PostgresConnectionSlot: @unchecked Sendable {
  private let lock = Mutex(())
  private var connection: PostgresConnection?
  private let location: PostgresConnectionString
  private let prepare: (PostgresConnection) throws(PostgresError) -> Void

  /// A slot holding `connection`, which reopens to `location` and runs `prepare` on each new
  /// connection (a `LISTEN`, say).
  init(
    _ connection: PostgresConnection, location: PostgresConnectionString,
    prepare: @escaping (PostgresConnection) throws(PostgresError) -> Void = { _ in }
  ) {
    self.connection = connection
    self.location = location
    self.prepare = prepare
  }

  /// Runs `body` with the connection, opened anew first when the last one broke; `reopened` is
  /// true then. A connection that breaks during `body` is dropped, to be reopened next time.
  func use<T: Sendable>(
    _ body: (PostgresConnection, _ reopened: Bool) throws(PostgresError) -> T
  ) throws(PostgresError) -> T {
    try use(wrap: { $0 }, body)
  }

  /// ``use(_:)`` for a body that throws `E`; failures to reconnect become `E` through `wrap`.
  func use<T: Sendable, E: Error>(
    wrap: (PostgresError) -> E,
    _ body: (PostgresConnection, _ reopened: Bool) throws(E) -> T
  ) throws(E) -> T {
    try lock.withLock { _ throws(E) -> T in
      var reopened = false
      if connection?.isOpen != true {
        connection = nil
        do throws(PostgresError) {
          let fresh = try PostgresConnection(location)
          try prepare(fresh)
          connection = fresh
        } catch {
          throw wrap(error)
        }
        reopened = true
      }
      guard let connection else { preconditionFailure("the slot was just filled") }
      do throws(E) {
        return try body(connection, reopened)
      } catch {
        if !connection.isOpen { self.connection = nil }
        throw error
      }
    }
  }

  /// Closes the connection now (a later ``use(_:)`` opens a new one).
  func close() {
    lock.withLock { _ in connection = nil }
  }
}
