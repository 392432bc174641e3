import TandemProtocol

/// Whether a journal kept its epoch when it was opened, or minted a new one and why.
public enum EpochContinuity: Sendable, Equatable, CustomStringConvertible {
  /// The epoch is the one the journal had: followers continue with a catch-up.
  case continued
  /// A new epoch was minted (a new journal, or history that may have been lost): followers of
  /// the old epoch resync with a snapshot.
  case minted(reason: String)

  /// `continued`, or `new epoch:` and the reason.
  public var description: String {
    switch self {
    case .continued: "continued"
    case .minted(let reason): "new epoch: \(reason)"
    }
  }
}
