import StatePatch

/// How a follower holds its replica: rebuilt from a snapshot document, advanced by patches,
/// hashed for the leader's divergence check.
protocol ReplicaModel: SendableMetatype {
  associatedtype State: Sendable

  /// Replaces the replica with the snapshot `document` (canonical JSON); returns the new state.
  mutating func reset(document: Frame) throws -> State

  /// Applies the RFC 6902 patch `patch` (JSON); returns the new state. On a throw the replica is
  /// unchanged.
  mutating func apply(patch: Frame) throws -> State

  /// The FNV-1a hash of the replica's canonical JSON.
  mutating func stateHash() -> UInt64
}

/// A replica held as a plain JSON document, for programs without a Swift state type.
struct JSONReplicaModel: ReplicaModel {
  private var document: JSONValue = .null
  private var hash: UInt64?

  mutating func reset(document bytes: Frame) throws -> JSONValue {
    document = try JSONParser().parse(bytes)
    hash = nil
    return document
  }

  mutating func apply(patch bytes: Frame) throws -> JSONValue {
    let patch = try JSONPatch(json: try JSONParser().parse(bytes))
    try document.apply(patch)
    hash = nil
    return document
  }

  mutating func stateHash() -> UInt64 {
    if let hash { return hash }
    let computed = document.canonicalHash()
    hash = computed
    return computed
  }
}

/// A replica held as a typed value beside its canonical document; a patch updates the value
/// reusing every subtree it did not touch (``StatePatch/StateReplica``).
struct TypedReplicaModel<State: Codable & Sendable>: ReplicaModel {
  private var replica: StateReplica<State>?
  private var hash: UInt64?

  mutating func reset(document bytes: Frame) throws -> State {
    let replica = try StateReplica<State>(document: try JSONParser().parse(bytes))
    self.replica = replica
    hash = nil
    return replica.state
  }

  mutating func apply(patch bytes: Frame) throws -> State {
    guard replica != nil else { preconditionFailure("a delta applied before the first snapshot") }
    let patch = try JSONPatch(json: try JSONParser().parse(bytes))
    try replica!.apply(patch)
    hash = nil
    return replica!.state
  }

  mutating func stateHash() -> UInt64 {
    if let hash { return hash }
    let computed = replica?.document.canonicalHash() ?? 0
    hash = computed
    return computed
  }
}
