import ZeroMQ

/// The handshake failures the leader's socket monitors report, counted by reason: a follower
/// without keys or with an unknown or revoked key, one pinning another leader key, a peer
/// that is not a ZeroMQ peer at all.
struct HandshakeFailures {
  /// The counts by reason (``reason(of:)``), for `STATS` and the metrics.
  private(set) var byReason: [String: Int] = [:]

  /// Counts `event` when it is a handshake failure; returns its reason, or `nil` for another
  /// event.
  mutating func count(_ event: MonitorEvent) -> String? {
    guard let reason = Self.reason(of: event) else { return nil }
    byReason[reason, default: 0] += 1
    return reason
  }

  /// The reason of a handshake failure, as a short stable label; `nil` for another event.
  static func reason(of event: MonitorEvent) -> String? {
    switch event.kind {
    case .handshakeFailedAuth:
      // The ZAP handler's status: 400 refused the key, 500 a malformed request.
      return event.value == 400 ? "unknown-key" : "zap-\(event.value)"
    case .handshakeFailedProtocol:
      switch event.value {
      case 0x1100_0002: return "mechanism-mismatch"
      case 0x1100_0001: return "cryptographic"
      default: return "protocol-0x" + String(event.value, radix: 16)
      }
    case .handshakeFailedNoDetail:
      return "no-detail"
    default:
      return nil
    }
  }

  /// What a reason means, for the log.
  static func explanation(of reason: String) -> String {
    switch reason {
    case "unknown-key": "a client key not in the key store (unknown or revoked)"
    case "mechanism-mismatch": "a peer without CURVE keys, or CURVE keys against a plain leader"
    case "cryptographic": "a peer that pinned another leader key, or a corrupted handshake"
    case "no-detail": "the peer closed the connection during the handshake"
    default: "a ZMTP handshake error"
    }
  }
}
