import CPostgres

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One open libpq connection: the only owner of its `PGconn`, which never leaves it.
///
/// Statements are sent with ``exec(_:_:)`` as parameterized queries, parameters and results in
/// binary form. The connection is not thread-safe: its owner serializes access (a `Mutex`).
/// Errors carry the server's SQLSTATE and message; the connection string shows up in them only
/// as its redacted ``PostgresConnectionString/description``.
package final class PostgresConnection {
  private let handle: OpaquePointer
  /// The connection string, whose description leaves out the password.
  package let location: PostgresConnectionString
  /// How long a statement may wait without a byte moving either way before the connection is
  /// given up (``isOpen`` false, the statement's outcome unknown): a server or a network that
  /// stopped answering without closing the connection (which TCP alone may never report).
  package static let silenceLimit = Duration.seconds(10)
  /// Set once a statement was given up mid-flight: the connection's protocol state is unknown.
  private var abandoned = false

  /// Connects (`PQconnectdb`) and quiets the server's notices.
  package init(_ location: PostgresConnectionString) throws(PostgresError) {
    guard let opened = PQconnectdb(location.raw) else {
      throw PostgresError(
        sqlState: nil, message: "out of memory", call: "connecting to \(location)")
    }
    guard PQstatus(opened) == CONNECTION_OK else {
      let message = PostgresConnectionString.oneLine(String(cString: PQerrorMessage(opened)))
      PQfinish(opened)
      throw PostgresError(sqlState: nil, message: message, call: "connecting to \(location)")
    }
    handle = opened
    self.location = location
    try exec("SET client_min_messages = warning")
    // The server ends a session that stays idle inside a transaction (its client stalled or cut
    // off mid-transaction) and stops waiting for a lock after a while: such a session holds
    // the lease row's lock, which a standby's acquisition would otherwise wait for without end.
    try exec("SET idle_in_transaction_session_timeout = \(Self.idleInTransactionMilliseconds)")
    try exec("SET lock_timeout = \(Self.lockTimeoutMilliseconds)")
  }

  /// The server's limit on a session idle inside a transaction (milliseconds): Tandem's own
  /// transactions never wait on their client between statements for anywhere near this long.
  package static let idleInTransactionMilliseconds = 1000
  /// The server's limit on a wait for a lock (milliseconds), after which the statement fails
  /// and is tried again by its caller.
  package static let lockTimeoutMilliseconds = 2000

  /// Connects to `location`, a libpq connection string or URL.
  package convenience init(_ location: String) throws(PostgresError) {
    try self.init(PostgresConnectionString(location))
  }

  deinit { PQfinish(handle) }

  /// Whether the connection still stands (libpq has not seen it break, and no statement was
  /// given up on it).
  package var isOpen: Bool { !abandoned && PQstatus(handle) == CONNECTION_OK }

  /// Runs `sql` with `parameters` (`$1`, `$2`... in binary form) and returns its rows, in
  /// binary form.
  @discardableResult
  package func exec(
    _ sql: String, _ parameters: [PostgresValue] = []
  ) throws(PostgresError)
    -> PostgresResult
  {
    let types = parameters.map(\.typeOID)
    let values = parameters.map(\.bytes)
    let lengths = values.map { Int32($0?.count ?? 0) }
    let formats = [Int32](repeating: 1, count: parameters.count)
    let sent = withPointers(to: values) { pointers in
      PQsendQueryParams(
        handle, sql, Int32(parameters.count), types, pointers, lengths, formats, 1)
    }
    guard sent == 1 else {
      throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle)), sql: sql)
    }
    let result = try awaitResult(sql: sql)
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      let message = String(cString: PQresultErrorMessage(result))
      PQclear(result)
      throw failure(sqlState: state, message: message, sql: sql)
    }
    return PostgresResult(result)
  }

  /// Flushes the statement sent and reads its result (the last one, when several come),
  /// waiting on the socket for at most ``silenceLimit`` at a time without progress; gives the
  /// connection up when that passes.
  private func awaitResult(sql: String) throws(PostgresError) -> OpaquePointer {
    func fail(_ message: String) -> PostgresError {
      failure(sqlState: nil, message: message, sql: sql)
    }
    // Send what libpq buffered.
    while true {
      let flushed = PQflush(handle)
      if flushed == 0 { break }
      guard flushed == 1 else { throw fail(String(cString: PQerrorMessage(handle))) }
      try waitForSocket(events: Int16(POLLIN | POLLOUT), sql: sql)
      guard PQconsumeInput(handle) == 1 else {
        throw fail(String(cString: PQerrorMessage(handle)))
      }
    }
    var last: OpaquePointer?
    while true {
      while PQisBusy(handle) == 1 {
        try waitForSocket(events: Int16(POLLIN), sql: sql)
        guard PQconsumeInput(handle) == 1 else {
          if let last { PQclear(last) }
          throw fail(String(cString: PQerrorMessage(handle)))
        }
      }
      guard let next = PQgetResult(handle) else { break }
      if let last { PQclear(last) }
      last = next
    }
    guard let last else { throw fail(String(cString: PQerrorMessage(handle))) }
    return last
  }

  /// Waits until the socket is ready for `events`, at most ``silenceLimit``; past it the
  /// connection is abandoned and the statement fails with its outcome unknown.
  private func waitForSocket(events: Int16, sql: String) throws(PostgresError) {
    var descriptor = pollfd(fd: PQsocket(handle), events: events, revents: 0)
    guard descriptor.fd >= 0 else {
      throw failure(sqlState: nil, message: "the connection is closed", sql: sql)
    }
    let deadline = ContinuousClock.now + Self.silenceLimit
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero else {
        abandoned = true
        throw failure(
          sqlState: nil,
          message: "no answer from the server for \(Self.silenceLimit): the connection is "
            + "given up (the statement may or may not have taken effect)", sql: sql)
      }
      let (seconds, attoseconds) = left.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      let polled = poll(&descriptor, 1, milliseconds)
      if polled > 0 { return }
      if polled < 0 && errno != EINTR {
        throw failure(sqlState: nil, message: "poll failed with errno \(errno)", sql: sql)
      }
    }
  }

  /// Runs `script`, one or more statements without parameters (`PQexec`), such as a schema.
  package func run(script: String) throws(PostgresError) {
    guard let result = PQexec(handle, script) else {
      throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle)), sql: script)
    }
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      throw failure(
        sqlState: state, message: String(cString: PQresultErrorMessage(result)), sql: script)
    }
  }

  /// Runs `body` in a transaction (`BEGIN` ... `COMMIT`), rolled back when it throws; errors of
  /// the connection itself become `E` through `wrap`.
  package func transaction<T, E: Error>(
    _ begin: String = "BEGIN", wrap: (PostgresError) -> E, _ body: () throws(E) -> T
  ) throws(E) -> T {
    do { try exec(begin) } catch { throw wrap(error) }
    let value: T
    do {
      value = try body()
    } catch {
      _ = try? exec("ROLLBACK")
      throw error
    }
    do { try exec("COMMIT") } catch {
      _ = try? exec("ROLLBACK")
      throw wrap(error)
    }
    return value
  }

  /// Sends `LISTEN` on `channel` (a plain identifier).
  package func listen(_ channel: String) throws(PostgresError) {
    try exec("LISTEN \(channel)")
  }

  /// Waits for a notification on a channel this connection listens to, up to `timeout`;
  /// returns the channels of those that came (empty when the time ran out). Polls the
  /// connection's socket (`PQsocket`), so nothing else runs on the connection meanwhile.
  package func waitForNotifications(timeout: Duration) throws(PostgresError) -> [String] {
    let deadline = ContinuousClock.now + timeout
    while true {
      guard PQconsumeInput(handle) == 1 else {
        throw failure(
          sqlState: nil, message: String(cString: PQerrorMessage(handle)),
          sql: "waiting for a notification")
      }
      var channels: [String] = []
      while let notification = PQnotifies(handle) {
        channels.append(String(cString: notification.pointee.relname))
        PQfreemem(notification)
      }
      if !channels.isEmpty { return channels }
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return [] }
      let (seconds, attoseconds) = left.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      guard descriptor.fd >= 0 else {
        throw failure(sqlState: nil, message: "the connection is closed", sql: "waiting")
      }
      let polled = poll(&descriptor, 1, milliseconds)
      if polled < 0 && errno != EINTR {
        throw failure(
          sqlState: nil, message: "poll failed with errno \(errno)",
          sql: "waiting for a notification")
      }
    }
  }

  /// The error for a failed statement, named by its first words (parameters are never shown).
  private func failure(sqlState: String?, message: String, sql: String) -> PostgresError {
    let words = sql.split(whereSeparator: \.isWhitespace).prefix(6).joined(separator: " ")
    return PostgresError(
      sqlState: sqlState, message: PostgresConnectionString.oneLine(message),
      call: "\(words)\(sql.split(whereSeparator: \.isWhitespace).count > 6 ? " ..." : "")")
  }
}

/// Calls `body` with C pointers to the bytes of each of `values` (null for nil), valid during
/// the call only.
private func withPointers<R>(
  to values: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> R
) -> R {
  var pointers: [UnsafePointer<CChar>?] = []
  pointers.reserveCapacity(values.count)
  func next(_ index: Int) -> R {
    guard index < values.count else { return body(pointers) }
    guard let value = values[index] else {
      pointers.append(nil)
      return next(index + 1)
    }
    // An empty value still needs a non-null pointer: libpq reads NULL as SQL NULL.
    let bytes = value.isEmpty ? [0] : value
    return bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        pointers.append($0)
        return next(index + 1)
      }
    }
  }
  return next(0)
}
