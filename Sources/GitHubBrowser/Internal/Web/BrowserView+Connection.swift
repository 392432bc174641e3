import TandemSync

extension BrowserView.Connection {
  /// The badge for a follower's connection as TandemSync reports it.
  init(_ connection: FollowerConnection) {
    switch connection {
    case .connected: self = .live
    case .lost: self = .reconnecting
    }
  }

  /// Reports `follower`'s connection to `report` now and at every change, from the follower's
  /// `connectionChanges()`: nothing polls, and each change is reported as the follower makes
  /// it. Once the follower has stopped (its stream ends) it reports ``disconnected`` and
  /// returns; when the calling task is cancelled it returns without reporting more.
  static func follow(
    _ follower: Follower<BrowserState>, report: (BrowserView.Connection) -> Void
  ) async {
    if let changes = try? await follower.connectionChanges() {
      for await change in changes where !Task.isCancelled { report(Self(change)) }
    }
    if !Task.isCancelled { report(.disconnected) }
  }
}
