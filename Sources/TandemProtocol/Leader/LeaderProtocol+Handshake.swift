extension LeaderProtocol {
  /// Answers a `HELLO`: refuses another protocol version, another schema fingerprint unless
  /// the follower's schema is compatible with the leader's (``SchemaCompatibility``), a client
  /// id bound to another key than the connection's `key`, and a process whose client id another
  /// process took over; else welcomes it, and its connection owns the client id from now on
  /// (and its key, when the id was bound to none).
  mutating func hello<Ledger: LeaderLedger>(
    version: String, client: String, fingerprint theirs: String, schema: Frame?,
    generation: UInt64, key: String,
    from connection: Frame, now: ContinuousClock.Instant, ledger: inout Ledger,
    into effects: inout [LeaderEffect]
  ) {
    guard version == ControlRequest.version else {
      effects.append(.count(.handshakeFailure(.version)))
      let message =
        "this leader speaks \(ControlRequest.version), not \(version): run the follower with"
        + " a Tandem release that speaks \(ControlRequest.version)"
      reply(.error(code: .version, message: message), to: connection, into: &effects)
      return
    }
    let fingerprint = configuration.fingerprint
    if theirs != fingerprint, theirs != "*", let schema, let mine = configuration.schema {
      guard admits(schema, of: client, leader: mine, from: connection, into: &effects) else {
        return
      }
    } else if theirs != fingerprint && theirs != "*" {
      effects.append(.count(.handshakeFailure(.fingerprint)))
      effects.append(
        .log(
          .error,
          "refused follower \(client): schema fingerprint \(theirs), expected \(fingerprint)",
          rateLimited: true))
      let message =
        "schema fingerprint \(theirs) does not match the leader's \(fingerprint): "
        + "leader and follower were built with different state or action types"
      reply(.error(code: .fingerprint, message: message), to: connection, into: &effects)
      return
    }
    switch ledger.hello(client: client, generation: generation, key: key) {
    case .unauthorized(let owner):
      unauthorized(
        "client id \(client) belongs to another key (\(owner)), not to \(key): give this "
          + "process a client id of its own", from: connection, into: &effects)
    case .superseded(let current):
      // A process that was away (paused, or cut off) while another process took its client id
      // over: its unanswered actions are not its own any more in the ledger's numbering, so it
      // must not be welcomed, or they would be answered as the other's duplicates.
      effects.append(.count(.supersededHello))
      effects.append(
        .log(
          .info,
          "refused a HELLO for client \(client) of generation \(generation): another process "
            + "took it over (generation \(current))", rateLimited: false))
      let message =
        "another process took client id \(client) over (generation \(current)) while this one "
        + "(generation \(generation)) was away; its unanswered actions may or may not have "
        + "been applied: check the state before sending them again"
      reply(.error(code: .superseded, message: message), to: connection, into: &effects)
    case .welcome(let handed):
      followers.welcomed(client, on: connection, now: now)
      let facts = ledger.welcomeFacts(of: client)
      effects.append(
        .log(
          .info, "hello from \(client), last action number \(facts.lastNumber)",
          rateLimited: true))
      let welcome = ControlReply.welcome(
        epoch, sequence: sequence, lastNumber: facts.lastNumber,
        forgottenThrough: facts.forgottenThrough,
        heartbeatMilliseconds: configuration.heartbeatMilliseconds,
        updates: configuration.updatesEndpoint, generation: handed, limits: configuration.limits,
        schema: configuration.schemaFrame)
      reply(welcome, to: connection, into: &effects)
    }
  }

  /// Answers a `CATCHUP` of a replica of `theirs` from `from`: no deltas when it is in step,
  /// the backlog's when it reaches back that far (within the catch-up bytes), else the
  /// journal's window when there is a journal, else `STALE` with the leader's own epoch and
  /// sequence (as for another epoch).
  mutating func catchUp(
    epoch theirs: Epoch, from: UInt64, for connection: Frame, into effects: inout [LeaderEffect]
  ) {
    if from <= sequence { followers.caughtUp(connection, missing: sequence + 1 - from) }
    guard theirs == epoch else { return stale(for: connection, into: &effects) }
    // In step (an empty backlog too, as after recovery): nothing to send, and no snapshot needed.
    if from == sequence + 1 { return served([], for: connection, into: &effects) }
    let limit = configuration.maximumCatchUpBytes
    if let deltas = backlog.deltas(from: from) {
      var bytes = 0
      for delta in deltas {
        bytes += delta.patch.count
        if bytes > limit { return stale(for: connection, into: &effects) }
      }
      return served(Array(deltas), for: connection, into: &effects)
    }
    guard configuration.hasJournal, from <= sequence else {
      return stale(for: connection, into: &effects)
    }
    effects.append(.readJournal(from: from, maximumBytes: limit, for: connection))
  }

  /// Answers the `CATCHUP` from `from` the shell read the journal for (``LeaderEffect/readJournal(from:maximumBytes:for:)``):
  /// its deltas, nil when the window does not reach back that far or holds too many bytes, or
  /// why the read failed.
  package mutating func journalWindow(
    _ window: Result<[Delta]?, any Error>, from: UInt64, for connection: Frame,
    into effects: inout [LeaderEffect]
  ) {
    switch window {
    case .success(let deltas?):
      effects.append(.count(.journalCatchUp))
      served(deltas, for: connection, into: &effects)
    case .success(nil):
      stale(for: connection, into: &effects)
    case .failure(let error):
      effects.append(.log(.error, "catch-up from the journal failed: \(error)", rateLimited: false))
      stale(for: connection, into: &effects)
    }
  }

  private mutating func served(
    _ deltas: [Delta], for connection: Frame, into effects: inout [LeaderEffect]
  ) {
    effects.append(.count(.catchUpServed))
    reply(.deltas(epoch, deltas), to: connection, into: &effects)
  }

  private mutating func stale(for connection: Frame, into effects: inout [LeaderEffect]) {
    effects.append(.count(.staleCatchUp))
    reply(.stale(epoch, sequence: sequence), to: connection, into: &effects)
  }
}

extension LeaderProtocol {
  /// Whether a follower whose `HELLO` carries `frame`, its schema, can follow this leader of
  /// schema `mine`; when not, refuses it with `ERROR schema` naming every conflict.
  mutating func admits(
    _ frame: Frame, of client: String, leader mine: ApplicationSchema, from connection: Frame,
    into effects: inout [LeaderEffect]
  ) -> Bool {
    let message: String
    do {
      let verdict = SchemaCompatibility.follower(
        try ApplicationSchema(bytes: frame), leader: mine)
      if verdict.isCompatible {
        let unknown = verdict.tagsUnknownToLeader
        effects.append(
          .log(
            .info,
            "follower \(client) has another schema, compatible with this leader's"
              + (unknown.isEmpty
                ? "" : "; its actions \(unknown.joined(separator: ", ")) will be refused"),
            rateLimited: true))
        return true
      }
      message =
        "this follower's schema cannot share the leader's state: "
        + verdict.conflicts.map(\.description).joined(separator: "; ")
        + ". Roll out a build whose schemas are compatible (see `tandem schema diff`)"
    } catch {
      message = "the HELLO's schema frame is not a schema description: \(error)"
    }
    effects.append(.count(.handshakeFailure(.schema)))
    effects.append(.log(.error, "refused follower \(client): \(message)", rateLimited: true))
    reply(.error(code: .schema, message: message), to: connection, into: &effects)
    return false
  }
}
