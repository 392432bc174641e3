import TandemProtocol

/// What `tandem schema diff OLD NEW` finds: whether processes of two builds can share a state
/// during a rolling upgrade from `old` to `new`, in which order, and why not.
///
/// A rolling upgrade passes through mixed states: replacing the followers first runs `new`
/// followers under the `old` leader, then a `new` leader that starts from the journal `old`
/// wrote; replacing the leader first runs `old` followers under a `new` leader started from
/// that journal.
public struct SchemaDiff: Sendable {
  /// The orders of a rolling upgrade.
  public enum Order: String, Sendable, CaseIterable {
    case followersFirst = "followers-first"
    case leaderFirst = "leader-first"
  }

  /// `new` followers of an `old` leader.
  public let newFollowers: SchemaVerdict
  /// `old` followers of a `new` leader.
  public let oldFollowers: SchemaVerdict
  /// A `new` leader starting from the journal of an `old` one.
  public let journal: [SchemaConflict]

  public init(old: ApplicationSchema, new: ApplicationSchema) {
    newFollowers = SchemaCompatibility.follower(new, leader: old)
    oldFollowers = SchemaCompatibility.follower(old, leader: new)
    journal = SchemaCompatibility.journal(reader: new.state, writer: old.state)
  }

  /// Whether `order` is safe.
  public func isSafe(_ order: Order) -> Bool {
    guard journal.isEmpty else { return false }
    switch order {
    case .followersFirst: return newFollowers.isCompatible
    case .leaderFirst: return oldFollowers.isCompatible
    }
  }

  /// The safe orders.
  public var safeOrders: [Order] { Order.allCases.filter(isSafe) }

  /// The report: one line per mix, then its conflicts, then the verdict.
  public var report: String {
    var lines: [String] = []
    func section(_ title: String, _ conflicts: [SchemaConflict], notes: [String] = []) {
      lines.append(title + (conflicts.isEmpty ? ": compatible" : ": incompatible"))
      lines += conflicts.map { "  - \($0)" }
      lines += notes.map { "  note: \($0)" }
    }
    let refused = newFollowers.tagsUnknownToLeader
    section(
      "new followers with an old leader", newFollowers.conflicts,
      notes: refused.isEmpty
        ? []
        : [
          "the old leader refuses the new actions \(refused.joined(separator: ", ")) "
            + "with unknown-tag until it is replaced"
        ])
    section("old followers with a new leader", oldFollowers.conflicts)
    section("a new leader from the old leader's journal", journal)
    switch safeOrders {
    case [.followersFirst, .leaderFirst]:
      lines.append("rolling upgrade: safe in any order")
    case [.followersFirst]:
      lines.append("rolling upgrade: safe if every follower is replaced before the leader")
    case [.leaderFirst]:
      lines.append("rolling upgrade: safe if the leader is replaced before any follower")
    default:
      lines.append(
        "rolling upgrade: not safe in any order; stop every process, then start the new build")
    }
    return lines.joined(separator: "\n")
  }
}
