extension LeaderProtocol {
  /// Why `caller` may not make `request`, or `nil` when it may (dispatches are judged later,
  /// by ``refusal(toDispatch:by:)``, once their number is known to be the client's next):
  /// - without keys (``Caller/open``) everything is allowed;
  /// - a key no longer in the key store may make no request at all;
  /// - `HELLO`, `SNAPSHOT`, `CATCHUP` and `PING` need `read`; dispatches need `write` (checked
  ///   per tag); `STATS`, `RELOAD-KEYS` and `STEP-DOWN` need `admin`.
  ///
  /// `RELOAD-KEYS` needs an admin key, so a leader without keys refuses it.
  package static func refusal(of request: ControlRequest, by caller: Caller) -> String? {
    guard case .key(let name, let grant) = caller else {
      guard case .reloadKeys = request else { return nil }
      return "this leader runs without CURVE keys: it has no key store to reload"
    }
    guard let grant else { return revoked(name) }
    switch request {
    case .stats, .reloadKeys, .stepDown:
      return grant.mayReadStatistics
        ? nil : "key \(name) has the \(grant.role.rawValue) role: \(request.command) needs admin"
    case .hello, .snapshot, .catchUp, .ping, .dispatch, .dispatchQuietly:
      return nil
    }
  }

  /// The rejection of an action of `tag` that `caller` may not dispatch: a `read` key, a tag
  /// outside the key's allow-list, or a key no longer in the key store. `nil` when it may.
  package static func refusal(toDispatch tag: String, by caller: Caller) -> Rejection? {
    guard case .key(let name, let grant) = caller else { return nil }
    guard let grant else { return Rejection(code: .unauthorized, message: revoked(name)) }
    guard !grant.mayDispatch(tag: tag) else { return nil }
    let message =
      grant.role < .write
      ? "key \(name) has the read role: it may follow, not dispatch"
      : "key \(name) may not dispatch \(tag): it is not in the key's tag allow-list"
    return Rejection(code: .unauthorized, message: message)
  }

  /// Answers a refused request with `ERROR unauthorized` (after the replies held for the batch,
  /// so that the connection's replies keep their order).
  mutating func unauthorized(
    _ reason: String, from connection: Frame, into effects: inout [LeaderEffect]
  ) {
    effects.append(.count(.unauthorized))
    effects.append(.log(.info, "refused a request: \(reason)", rateLimited: true))
    reply(.error(code: .unauthorized, message: reason), to: connection, into: &effects)
  }

  private static func revoked(_ name: String) -> String {
    "key \(name) is not in the leader's key store (it was revoked): ask the leader's operator "
      + "to add it again"
  }
}

extension ControlRequest {
  /// The request's command word, for messages.
  package var command: String { String(decoding: frames[0], as: UTF8.self) }
}
