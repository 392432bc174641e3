/// What a patch touched beneath one node of the old document, so that a patched decode can
/// reuse every untouched subtree of the old typed value.
///
/// Operations are replayed on this tree: a node the patch replaced (or added) is `fresh` and is
/// decoded from the new document; an array first records touched elements by index and, once an
/// operation adds or removes one of its elements, switches to one slot per current position that
/// remembers which old element (if any) sits there.
final class Touch {
  /// One position of an array after insertions or removals.
  enum Slot {
    /// The old element at this index, and what the patch touched beneath it.
    case old(Int, Touch?)
    /// An element the patch put here; decoded from the new document.
    case fresh
  }

  /// Whether the whole subtree is decoded from the new document.
  var fresh = false
  /// Touched members of an object.
  var members: [String: Touch] = [:]
  /// Touched elements of an array that no operation has added to or removed from.
  var elements: [Int: Touch] = [:]
  /// The positions of an array that an operation added to or removed from.
  var slots: [Slot]?

  init(fresh: Bool = false) {
    self.fresh = fresh
  }

  /// The touches of `patch` on `document` (the document before the patch).
  static func of(_ patch: JSONPatch, on document: JSONValue) -> Touch {
    let root = Touch()
    for operation in patch.operations {
      switch operation {
      case .add(let path, _), .copy(_, let path):
        root.mark(path.tokens[...], .add, old: document)
      case .remove(let path):
        root.mark(path.tokens[...], .remove, old: document)
      case .replace(let path, _):
        root.mark(path.tokens[...], .replace, old: document)
      case .move(let from, let path):
        root.mark(from.tokens[...], .remove, old: document)
        root.mark(path.tokens[...], .add, old: document)
      case .test:
        break
      }
    }
    return root
  }

  enum Edit {
    case add
    case remove
    case replace
  }

  /// Records `edit` at `tokens` below this node, whose value in the old document is `old`.
  /// Anything unexpected makes the node fresh: decoding more is always correct.
  private func mark(_ tokens: ArraySlice<String>, _ edit: Edit, old: JSONValue?) {
    if fresh { return }
    guard let token = tokens.first, let old else {
      fresh = true
      return
    }
    let rest = tokens.dropFirst()
    switch old {
    case .object(let object):
      if rest.isEmpty {
        members[token] = Touch(fresh: true)
      } else {
        let child = members[token] ?? Touch()
        members[token] = child
        child.mark(rest, edit, old: object[token])
      }
    case .array(let oldElements):
      markElement(token, rest, edit, oldElements)
    default:
      fresh = true
    }
  }

  private func markElement(
    _ token: String, _ rest: ArraySlice<String>, _ edit: Edit, _ oldElements: [JSONValue]
  ) {
    if slots == nil, rest.isEmpty, edit != .replace {
      var positions = oldElements.indices.map { Slot.old($0, nil) }
      for (index, touched) in elements { positions[index] = .old(index, touched) }
      slots = positions
      elements = [:]
    }
    if var positions = slots {
      slots = nil
      defer { slots = positions }
      let index = token == "-" ? positions.count : Int(token) ?? -1
      let limit = rest.isEmpty && edit == .add ? positions.count : positions.count - 1
      guard index >= 0, index <= limit else {
        fresh = true
        return
      }
      guard !rest.isEmpty else {
        switch edit {
        case .add: positions.insert(.fresh, at: index)
        case .remove: positions.remove(at: index)
        case .replace: positions[index] = .fresh
        }
        return
      }
      if case .old(let original, let touched) = positions[index] {
        let child = touched ?? Touch()
        positions[index] = .old(original, child)
        child.mark(rest, edit, old: oldElements[original])
      }
      return
    }
    guard let index = Int(token), oldElements.indices.contains(index) else {
      fresh = true
      return
    }
    if rest.isEmpty {
      elements[index] = Touch(fresh: true)
    } else {
      let child = elements[index] ?? Touch()
      elements[index] = child
      child.mark(rest, edit, old: oldElements[index])
    }
  }
}
