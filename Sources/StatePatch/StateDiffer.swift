/// Computes the RFC 6902 patch between two values of a state type, at a cost that follows what
/// changed rather than the size of the state.
///
/// The patch turns the canonical JSON of `old` (as ``StateEncoder`` writes it) into the
/// canonical JSON of `new`. Wherever a value is `Equatable` and equal to the old one at the
/// same path, the differ skips it without encoding it; see <doc:TypedDiffs> for the walk and
/// the contract it relies on (`==` implies equal canonical encoding).
///
/// Diff a chain of states (`a` to `b`, then `b` to `c`) with one differ: it keeps what it
/// recorded of the last new state's members, and reuses it when the next old state has the
/// same bits, so each state in the chain is recorded once.
///
/// ```swift
/// struct Item: Codable, Equatable { var id: Int; var stars: Int }
/// struct State: Codable, Equatable { var items: [Item] }
///
/// var differ = StateDiffer()
/// let old = State(items: [Item(id: 1, stars: 0), Item(id: 2, stars: 0)])
/// var new = old
/// new.items[1].stars = 5
/// let patch = try differ.patch(from: old, to: new)
/// // [{"op": "replace", "path": "/items/1/stars", "value": 5}]
/// ```
public struct StateDiffer: Sendable {
  /// What the diffs so far have encoded and compared.
  public private(set) var counters = StatePatchCounters()
  /// What the last diff recorded of its new state's members.
  private var lastRecord: RecordedValue?

  /// A differ with zero counters.
  public init() {}

  /// The patch from the canonical JSON of `old` to that of `new`.
  public mutating func patch<State: Encodable>(
    from old: State, to new: State
  )
    throws(StateEncodingError) -> JSONPatch
  {
    let context = DiffContext()
    context.previousRecord = lastRecord
    defer {
      if let recorded = context.lastRecord { lastRecord = recorded }
      counters.nodesEncoded += context.session.nodesEncoded + context.shallow.nodesEncoded
      counters.nodesCompared += context.nodesCompared
    }
    do {
      try context.diff(old: old, new: new, compare: false)
    } catch let error as StateEncodingError {
      throw error
    } catch {
      throw StateEncodingError(.encodeFailed(error), at: JSONPointer(tokens: context.path))
    }
    return JSONPatch(context.operations)
  }
}
