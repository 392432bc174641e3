/// A typed value kept in step with a stream of patches: it holds the value and its canonical
/// document, and applying a patch gives the new typed value while reusing every subtree of the
/// old value that the patch did not touch.
///
/// A follower keeps one of these: the leader sends ``StateDiffer`` patches, the replica applies
/// them to ``document`` (in place) and rebuilds ``state`` by decoding only what changed.
///
/// ```swift
/// var replica = try StateReplica(old)
/// try replica.apply(try differ.patch(from: old, to: new))
/// replica.state == new  // true
/// replica.counters.nodesDecoded  // a handful for a one-field change
/// ```
public struct StateReplica<State: Codable> {
  /// The current typed value.
  public private(set) var state: State
  /// The canonical JSON of ``state``.
  public private(set) var document: JSONValue
  /// The work done so far: encoding at creation, then decoding and reuse per patch.
  public private(set) var counters = StatePatchCounters()

  /// A replica of `state`, encoding its canonical document.
  public init(_ state: State) throws(StateEncodingError) {
    var encoder = StateEncoder()
    self.document = try encoder.encode(state)
    self.state = state
    counters.add(encoder.counters)
  }

  /// A replica of the value that `document` (a canonical snapshot) holds.
  public init(document: JSONValue) throws(StateDecodingError) {
    var decoder = StateDecoder()
    self.state = try decoder.decode(State.self, from: document)
    self.document = document
    counters.add(decoder.counters)
  }

  /// Applies `patch` to ``document`` and updates ``state`` to match, all or nothing.
  ///
  /// Members and elements the patch did not touch keep the old typed value; touched ones are
  /// decoded from the new document. When nothing outside the replica holds the old state, its
  /// arrays and dictionaries change in place, so a one-field update does not copy them. If the
  /// patch does not apply, or the new document does not decode as `State`, the replica holds
  /// the state and document it had (the state decoded again from the restored document) and
  /// the error says why.
  public mutating func apply(_ patch: JSONPatch) throws(StateReplicaError) {
    try Self.apply(patch, document: &document, state: &state, counters: &counters)
  }

  /// The work of ``apply(_:)`` on a document and a typed state held elsewhere (a follower keeps
  /// the typed state in its store and changes it there, so no second reference forces a copy).
  ///
  /// `state` must be the typed value of `document`; afterwards it is the value of the patched
  /// document, or, on a throw, both are as they were (the state decoded again).
  package static func apply(
    _ patch: JSONPatch, document: inout JSONValue, state: inout State,
    counters: inout StatePatchCounters
  ) throws(StateReplicaError) {
    let touch = Touch.of(patch, on: document)
    var applied = ReversiblePatch()
    do {
      try applied.apply(patch, to: &document)
    } catch {
      throw .patchFailed(error)
    }
    let session = DecodingSession()
    defer {
      counters.nodesDecoded += session.nodesDecoded
      counters.subtreesReused += session.subtreesReused
    }
    var failure: StateDecodingError?
    withUnsafeMutablePointer(to: &state) { pointer in
      // The old value moves into `old`, so the decode holds the only reference to it.
      let old = OldValue(pointer.move())
      do {
        pointer.initialize(
          to: try session.patched(State.self, old: old, from: document, touch: touch, at: []))
      } catch {
        failure =
          error as? StateDecodingError ?? StateDecodingError(.decodeFailed(error), at: .root)
        applied.revert(&document)
        pointer.initialize(to: restoredState(from: document))
      }
    }
    if let failure { throw .decodingFailed(failure) }
  }

  /// Decodes the state again from the restored document after a failed update (the update may
  /// have consumed parts of the old typed value).
  private static func restoredState(from document: JSONValue) -> State {
    var decoder = StateDecoder()
    do {
      return try decoder.decode(State.self, from: document)
    } catch {
      preconditionFailure("the replica's previous document no longer decodes: \(error)")
    }
  }
}

extension StateReplica: Sendable where State: Sendable {}

/// A patch could not be applied to a ``StateReplica``.
public enum StateReplicaError: Error, CustomStringConvertible {
  /// The patch does not apply to the replica's document.
  case patchFailed(JSONPatchError)
  /// The patched document does not decode as the replica's state type.
  case decodingFailed(StateDecodingError)

  public var description: String {
    switch self {
    case .patchFailed(let error): "the patch does not apply: \(error)"
    case .decodingFailed(let error): "the patched document does not decode: \(error)"
    }
  }
}
