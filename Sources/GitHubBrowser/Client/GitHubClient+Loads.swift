extension GitHubClient {
  /// Who the configured token signs in as: ``Identity/anonymous`` without a token, otherwise
  /// the login and name from `GET /user`, or ``Identity/tokenRefused(status:message:)`` when
  /// GitHub answers ``GitHubError/unauthorized(status:message:)``; its text bounded as the
  /// state keeps it (``TextBound``). Throws the other failures, and
  /// ``GitHubError/invalidResponse(path:reason:)`` for a login that is not one
  /// (``NameBound/login``).
  public func resolveIdentity() async throws(GitHubError) -> Identity {
    guard configuration.token != nil else { return .anonymous }
    let identity: Identity
    do {
      let user = try await authenticatedUser()
      identity = .signedIn(login: user.login, name: user.name)
    } catch .unauthorized(let status, let message) {
      identity = .tokenRefused(status: status, message: message)
    }
    do {
      return try identity.bounded()
    } catch {
      throw .invalidResponse(path: "/user", reason: error.message)
    }
  }

  /// Performs a load and packages the outcome as ``BrowserAction/completeLoad(id:workerID:result:)``
  /// expects: the page or detail, or the failure (a rate limit with its retry time), with the
  /// rate limit GitHub last reported. The outcome is bounded as the state keeps it before it
  /// travels: text cut to its ``TextBound``, the README to ``BrowserState/maximumReadmeBytes``,
  /// and an answer with a name beyond its ``NameBound``, or more than
  /// ``BrowserState/maximumPageEntries`` entries, made a failure saying so. Returns `nil` when
  /// the calling task was cancelled: the load was not done, so the worker should release its
  /// claim instead.
  ///
  /// ```swift
  /// if let result = await client.perform(load.target) {
  ///   store.dispatch(BrowserAction.completeLoad(id: load.id, workerID: me, result: result))
  /// } else {
  ///   store.dispatch(BrowserAction.releaseLoad(id: load.id, workerID: me))
  /// }
  /// ```
  public func perform(_ target: LoadTarget) async -> LoadResult? {
    let outcome: LoadResult.Outcome
    do {
      switch target {
      case .repositories(let source, let number):
        let page = try await repositories(of: source, page: number)
        outcome = .repositories(
          RepositoryPage(
            repositories: page.items.map(\.summary), nextPage: page.nextPage,
            lastPage: page.lastPage))
      case .repository(let owner, let name):
        outcome = .repository(try await repositoryDetail(owner: owner, name: name))
      }
    } catch .cancelled {
      return nil
    } catch {
      outcome = .failed(error.loadFailure)
    }
    return LoadResult(outcome.bounded, rateLimit: rateLimit)
  }
}
