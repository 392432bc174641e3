import StatePatch
import TandemProtocol
import TandemSync

/// A leader's state at one sequence of one epoch.
public struct Snapshot: Sendable, Equatable {
  /// The leader's epoch when it took the snapshot.
  public var epoch: Epoch
  /// The sequence of the state.
  public var sequence: UInt64
  /// The FNV-1a hash of the state's canonical JSON, as the leader computed it.
  public var stateHash: UInt64
  /// The state, as JSON.
  public var state: JSONValue

  /// A snapshot of `state` at `sequence` of `epoch`.
  public init(epoch: Epoch, sequence: UInt64, stateHash: UInt64, state: JSONValue) {
    self.epoch = epoch
    self.sequence = sequence
    self.stateHash = stateHash
    self.state = state
  }
}
