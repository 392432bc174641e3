extension GitHubClient {
  /// Who the configured token signs in as: ``Identity/anonymous`` without a token, otherwise
  /// the login and name from `GET /user`, or ``Identity/tokenRefused(status:message:)`` when
  /// GitHub answers ``GitHubError/unauthorized(status:message:)``. Throws the other failures.
  public func resolveIdentity() async throws(GitHubError) -> Identity {
    guard configuration.token != nil else { return .anonymous }
    do {
      let user = try await authenticatedUser()
      return .signedIn(login: user.login, name: user.name)
    } catch .unauthorized(let status, let message) {
      return .tokenRefused(status: status, message: message)
    }
  }

  /// Performs a load and packages the outcome as ``BrowserAction/completeLoad(id:workerID:result:)``
  /// expects: the page or detail (its README cut to ``BrowserState/maximumReadmeBytes``, as
  /// the state keeps it), or the failure (a rate limit with its retry time), with the rate
  /// limit GitHub last reported. Returns `nil` when the calling task was cancelled: the
  /// load was not done, so the worker should release its claim instead.
  ///
  /// ```swift
  /// if let result = await client.perform(load.target) {
  ///   store.dispatch(BrowserAction.completeLoad(id: load.id, workerID: me, result: result))
  /// } else {
  ///   store.dispatch(BrowserAction.releaseLoad(id: load.id, workerID: me))
  /// }
  /// ```
  public func perform(_ target: LoadTarget) async -> LoadResult? {
    do {
      switch target {
      case .repositories(let source, let number):
        let page = try await repositories(of: source, page: number)
        let result = RepositoryPage(
          repositories: page.items.map(\.summary), nextPage: page.nextPage,
          lastPage: page.lastPage)
        return LoadResult(.repositories(result), rateLimit: rateLimit)
      case .repository(let owner, let name):
        var detail = try await repositoryDetail(owner: owner, name: name)
        detail.limitReadme()
        return LoadResult(.repository(detail), rateLimit: rateLimit)
      }
    } catch .cancelled {
      return nil
    } catch {
      return LoadResult(.failed(error.loadFailure), rateLimit: rateLimit)
    }
  }
}
