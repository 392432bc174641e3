extension LoadResult.Outcome {
  /// The outcome as the state keeps it: each text of a page or a detail cut to its
  /// ``TextBound``, the README to ``BrowserState/maximumReadmeBytes``, a failure's message to
  /// ``TextBound/message``. A page or a detail with a name beyond its ``NameBound``, or with
  /// more than ``BrowserState/maximumPageEntries`` repositories, branches or commits, becomes
  /// a failure saying so. A worker bounds its result before sending it, and the reducer bounds
  /// one that arrives all the same.
  var bounded: LoadResult.Outcome {
    do throws(BoundViolation) {
      switch self {
      case .repositories(let page):
        var page = page
        page.repositories = try page.repositories.boundedPage(of: "repositories")
        return .repositories(page)
      case .repository(let detail):
        return .repository(try detail.bounded())
      case .failed(let failure):
        return .failed(failure.bounded)
      }
    } catch {
      return .failed(LoadFailure(kind: .server, message: error.message).bounded)
    }
  }
}

extension LoadFailure {
  /// The failure with its message cut to ``TextBound/message``.
  var bounded: LoadFailure {
    var failure = self
    failure.message = message.cut(to: .message)
    return failure
  }
}

extension Identity {
  /// The identity as the state keeps it: a profile's name cut to ``TextBound/personName``, a
  /// refusal's message to ``TextBound/message``. Throws for a login beyond ``NameBound/login``.
  func bounded() throws(BoundViolation) -> Identity {
    switch self {
    case .unknown, .anonymous:
      return self
    case .signedIn(let login, let name):
      try NameBound.login.check(login)
      return .signedIn(login: login, name: name?.cut(to: .personName))
    case .tokenRefused(let status, let message):
      return .tokenRefused(status: status, message: message.cut(to: .message))
    }
  }
}

/// A value from GitHub that the state keeps within the bounds of its names and text.
protocol GitHubBounded {
  /// The value with its text cut to the ``TextBound``s; throws for a name beyond its
  /// ``NameBound`` (or too many entries).
  func bounded() throws(BoundViolation) -> Self
}

extension RepositoryDetail {
  func bounded() throws(BoundViolation) -> RepositoryDetail {
    var detail = self
    detail.summary = try summary?.bounded()
    detail.branches = try branches.boundedPage(of: "branches")
    detail.commits = try commits.boundedPage(of: "commits")
    detail.limitReadme()
    return detail
  }
}

extension RepositorySummary: GitHubBounded {
  func bounded() throws(BoundViolation) -> RepositorySummary {
    try NameBound.login.check(owner)
    try NameBound.repositoryName.check(name)
    try NameBound.branchName.check(defaultBranch)
    var summary = self
    summary.description = description?.cut(to: .description)
    summary.language = language?.cut(to: .language)
    summary.updatedAt = updatedAt.cut(to: .timestamp)
    return summary
  }
}

extension Branch: GitHubBounded {
  func bounded() throws(BoundViolation) -> Branch {
    try NameBound.branchName.check(name)
    try NameBound.sha.check(sha)
    return self
  }
}

extension CommitSummary: GitHubBounded {
  func bounded() throws(BoundViolation) -> CommitSummary {
    try NameBound.sha.check(sha)
    return CommitSummary(
      sha: sha, title: title.cut(to: .commitTitle), author: author.cut(to: .personName),
      date: date.cut(to: .timestamp))
  }
}

extension Array where Element: GitHubBounded {
  /// The entries of one page of a GitHub list, each bounded; throws for more than
  /// ``BrowserState/maximumPageEntries`` of them (`noun` names them in the message).
  fileprivate func boundedPage(of noun: String) throws(BoundViolation) -> [Element] {
    guard count <= BrowserState.maximumPageEntries else {
      throw BoundViolation(
        message: "GitHub sent \(count) \(noun) on one page, more than a page holds"
          + " (\(BrowserState.maximumPageEntries))")
    }
    var bounded: [Element] = []
    bounded.reserveCapacity(count)
    for entry in self { bounded.append(try entry.bounded()) }
    return bounded
  }
}
