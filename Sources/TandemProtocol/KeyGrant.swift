/// What a client key in the leader's key store may do: its name (the audit trail's and the
/// client-id binding's), its role and, for dispatching roles, an optional allow-list of tags.
///
/// ```swift
/// let worker = KeyGrant(name: "worker-1", role: .write, tags: ["load.started", "load.done"])
/// worker.mayDispatch(tag: "load.done")     // true
/// worker.mayDispatch(tag: "user.navigate") // false
/// worker.mayReadStatistics                 // false: admin only
/// ```
public struct KeyGrant: Sendable, Hashable, Codable {
  /// The roles, each allowing what the one before it does and more.
  public enum Role: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// May join and follow: `HELLO`, `SNAPSHOT`, `CATCHUP`, `PING`, and the updates.
    case read
    /// May also dispatch (`DISPATCH`, `DISPATCH-QUIET`), within the key's tag allow-list.
    case write
    /// May also read statistics (`STATS`) and use the operator commands.
    case admin

    public static func < (left: Role, right: Role) -> Bool {
      allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
    }
  }

  /// The key's name: what the leader logs, journals with each action and binds client ids to.
  public var name: String
  public var role: Role
  /// The tags the key may dispatch; `nil` allows every tag. Only ``Role/write`` and
  /// ``Role/admin`` dispatch at all.
  public var tags: Set<String>?

  public init(name: String, role: Role, tags: Set<String>? = nil) {
    self.name = name
    self.role = role
    self.tags = tags
  }

  /// Whether the key may dispatch an action of `tag`.
  public func mayDispatch(tag: String) -> Bool {
    role >= .write && (tags?.contains(tag) ?? true)
  }

  /// Whether the key may read the leader's statistics and use the operator commands.
  public var mayReadStatistics: Bool { role >= .admin }
}

/// Who sent a request to the leader, as its shell authenticated the connection.
package enum Caller: Sendable, Equatable {
  /// The leader runs without CURVE keys: nobody is authenticated and everything is allowed.
  case open
  /// A connection authenticated with the key of this name; `grant` is what the key store says
  /// it may do now, `nil` when the store no longer holds it (revoked since the handshake).
  case key(name: String, grant: KeyGrant?)

  /// The key's name: the one a client id is bound to and the journal records; empty when open.
  package var keyName: String {
    switch self {
    case .open: ""
    case .key(let name, _): name
    }
  }
}
