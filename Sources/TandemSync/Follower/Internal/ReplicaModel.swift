import StatePatch
import TandemProtocol

/// How a follower holds its replica: rebuilt from a snapshot document, advanced by patches
/// applied to the replica store's state where it lies, hashed for the leader's divergence check.
protocol ReplicaModel: SendableMetatype {
  associatedtype State: Sendable

  /// Replaces the replica with the snapshot `document` (canonical JSON); returns the new state.
  mutating func reset(document: Frame) throws -> State

  /// Applies the RFC 6902 patches `patches` (JSON), in order, to `state`, the replica store's
  /// state as of the last reset or apply. All or nothing: on a throw, `state` and the model are
  /// unchanged.
  mutating func apply(patches: [Frame], to state: inout State) throws

  /// The FNV-1a hash of the canonical JSON of `state`, the replica store's state.
  mutating func stateHash(of state: State) -> UInt64
}

/// A replica held as a plain JSON document, for programs without a Swift state type: the store's
/// state is the document.
struct JSONReplicaModel: ReplicaModel {
  private var hash: UInt64?

  mutating func reset(document bytes: Frame) throws -> JSONValue {
    hash = nil
    return try JSONParser().parse(bytes)
  }

  mutating func apply(patches: [Frame], to state: inout JSONValue) throws {
    try state.apply(try JSONPatch(concatenating: patches))
    hash = nil
  }

  mutating func stateHash(of state: JSONValue) -> UInt64 {
    if let hash { return hash }
    let computed = state.canonicalHash()
    hash = computed
    return computed
  }
}

/// A replica held as a typed value (in the store) beside its canonical document; a patch updates
/// the value reusing every subtree it did not touch (``StatePatch/StateReplica``'s update).
struct TypedReplicaModel<State: Codable & Sendable>: ReplicaModel {
  private var document: JSONValue = .null
  private var counters = StatePatchCounters()
  private var hash: UInt64?

  mutating func reset(document bytes: Frame) throws -> State {
    let replica = try StateReplica<State>(document: try JSONParser().parse(bytes))
    document = replica.document
    hash = nil
    return replica.state
  }

  mutating func apply(patches: [Frame], to state: inout State) throws {
    // One patch of every operation: the typed state is rebuilt once, however many there are.
    let patch = try JSONPatch(concatenating: patches)
    try StateReplica<State>.apply(
      patch, document: &document, state: &state, counters: &counters)
    hash = nil
  }

  mutating func stateHash(of _: State) -> UInt64 {
    if let hash { return hash }
    let computed = document.canonicalHash()
    hash = computed
    return computed
  }
}

extension JSONPatch {
  /// One patch of the operations of the RFC 6902 patches `patches` (JSON), in order: applying
  /// it is applying each of them in turn.
  init(concatenating patches: [Frame]) throws {
    if patches.count == 1 {
      self = try JSONPatch(json: try JSONParser().parse(patches[0]))
      return
    }
    var operations: [PatchOperation] = []
    for bytes in patches {
      operations += try JSONPatch(json: try JSONParser().parse(bytes)).operations
    }
    self = JSONPatch(operations)
  }
}
