/// Which claimable loads a worker takes on next, so that no account and no owner holds up
/// another's loads.
///
/// A worker performs at most ``BrowserWorker/Configuration/concurrency`` loads of one account
/// at once, and at most ``BrowserWorker/Configuration/ownerConcurrency`` of one owner within an
/// account, with no bound across accounts: one user's slow answers (an owner that answers late)
/// fill that user's share only, and a rate limit holds back only its own account's loads
/// (``BrowserState/isClaimable(_:at:)``). Within those shares loads go in the leader's order.
enum LoadScheduling {
  /// The loads of `claimable` (in the leader's order) to start now, given the loads already
  /// `running`.
  static func next(
    from claimable: [LoadRequest], running: [LoadRequest], perAccount: Int, perOwner: Int
  ) -> [LoadRequest] {
    var accounts: [String: Int] = [:]
    var owners: [OwnerKey: Int] = [:]
    var taken = Set(running.map(\.id))
    for load in running {
      accounts[load.account, default: 0] += 1
      owners[OwnerKey(load), default: 0] += 1
    }
    var chosen: [LoadRequest] = []
    for load in claimable where !taken.contains(load.id) {
      let owner = OwnerKey(load)
      guard accounts[load.account, default: 0] < perAccount, owners[owner, default: 0] < perOwner
      else { continue }
      accounts[load.account, default: 0] += 1
      owners[owner, default: 0] += 1
      taken.insert(load.id)
      chosen.append(load)
    }
    return chosen
  }

  /// An account and the owner whose data a load fetches (`@user` for the account's own list).
  private struct OwnerKey: Hashable {
    var account: String
    var owner: String

    init(_ load: LoadRequest) {
      account = load.account
      switch load.target {
      case .repositories(let source, _): owner = source.key
      case .repository(let owner, _): self.owner = owner.lowercased()
      }
    }
  }
}
