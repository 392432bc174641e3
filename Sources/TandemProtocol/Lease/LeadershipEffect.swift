/// What ``Leadership`` asks a leader's shell to do: the only way the lease rules reach the
/// arbiter (a ``LeaseRecord`` store), the journal, the sockets and the log. The shell carries
/// effects out in order and reports each outcome back as the input its case names.
package enum LeadershipEffect: Sendable, Equatable {
  /// Read the lease as it stands; report it with ``Leadership/leaseRead(_:now:)``.
  case readLease
  /// Wait until the lease changes or `timeout` passes (LISTEN/NOTIFY or polling); report the
  /// wake-up with ``Leadership/watchEnded(now:)``.
  case watchLease(timeout: Duration)
  /// Take the lease (when nobody holds it or it expired) for ``Leadership/Configuration/leaseLength``;
  /// report the answer with ``Leadership/acquired(_:now:)`` or
  /// ``Leadership/acquireFailed(_:now:)``.
  case acquire(length: Duration)
  /// Extend the lease held with `fencingEpoch`; report the answer with
  /// ``Leadership/renewed(_:now:)`` or ``Leadership/renewFailed(_:now:)``.
  case renew(fencingEpoch: UInt64, length: Duration)
  /// Open the shared journal for appends fenced by `fencingEpoch`, and recover the state and
  /// the ledger from it; report with ``Leadership/recovered(now:)`` or
  /// ``Leadership/recoveryFailed(_:now:)``.
  case recover(fencingEpoch: UInt64)
  /// Start serving followers as the active leader (publish, apply, acknowledge).
  case serve(fencingEpoch: UInt64)
  /// Stop acknowledging at once: no `ACK`, `WELCOME` or delta goes out from now on; held
  /// replies are dropped (their followers send again to whoever holds the lease).
  case stopAcknowledging(reason: String)
  /// Commit the batch in flight and send its replies (a clean hand-over); report with
  /// ``Leadership/drained(now:)``.
  case drain
  /// Close the serving sockets and the journal session, then report with
  /// ``Leadership/demoted(now:)``; the process answers `HELLO` with `REDIRECT` from then on.
  case closeSockets
  /// Give the lease up at once, if still held with `fencingEpoch`, so that a standby takes it
  /// without waiting for it to expire.
  case release(fencingEpoch: UInt64)
  /// Write a line to the log.
  case log(LeaderLogLevel, String)
}
