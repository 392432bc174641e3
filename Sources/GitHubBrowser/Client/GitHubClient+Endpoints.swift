#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking
#else
  import Foundation
#endif

extension GitHubClient {
  /// The user the token signs in as (`GET /user`).
  public func authenticatedUser() async throws(GitHubError) -> GitHubUser {
    try decode(GitHubUser.self, from: await get("/user"), path: "/user")
  }

  /// One page of a source's repositories (`GET /user/repos` or `GET /users/{owner}/repos`).
  public func repositories(
    of source: RepositorySource, page: Int
  ) async throws(GitHubError) -> GitHubPage<GitHubRepository> {
    let path: String
    switch source {
    case .signedInUser: path = "/user/repos"
    case .owner(let login): path = "/users/\(Self.segment(login))/repos"
    }
    let response = try await get(
      path,
      query: [
        URLQueryItem(name: "per_page", value: "\(configuration.perPage)"),
        URLQueryItem(name: "page", value: "\(page)"),
      ])
    let items = try decode([GitHubRepository].self, from: response, path: path)
    let pages = response.link.map(LinkHeader.pages) ?? [:]
    return GitHubPage(
      items: items, page: page, nextPage: pages["next"], lastPage: pages["last"],
      fromCache: response.fromCache, rateLimit: response.rateLimit)
  }

  /// A repository (`GET /repos/{owner}/{repo}`).
  public func repository(owner: String, name: String) async throws(GitHubError) -> GitHubRepository
  {
    let path = Self.repositoryPath(owner, name)
    return try decode(GitHubRepository.self, from: await get(path), path: path)
  }

  /// The README's text, or `nil` when the repository has none (`GET .../readme`).
  ///
  /// With `raw` the client asks for `application/vnd.github.raw` and takes the body as it is;
  /// otherwise it decodes the JSON answer's base64 `content`.
  public func readme(
    owner: String, name: String, raw: Bool = false
  ) async throws(GitHubError)
    -> String?
  {
    let path = Self.repositoryPath(owner, name) + "/readme"
    let response: GitHubResponse
    do {
      response = try await get(
        path, accept: raw ? "application/vnd.github.raw" : "application/vnd.github+json")
    } catch .notFound {
      return nil
    }
    if let type = response.contentType, !type.contains("json") {
      return String(decoding: response.body, as: UTF8.self)
    }
    let content = try decode(GitHubContent.self, from: response, path: path)
    guard content.encoding == "base64", let text = content.content else {
      return content.content
    }
    let compact = text.filter { !$0.isWhitespace }
    guard let bytes = Data(base64Encoded: compact) else {
      throw .invalidResponse(path: path, reason: "README content is not valid base64")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The first page of branches (`GET .../branches`).
  public func branches(owner: String, name: String) async throws(GitHubError) -> [GitHubBranch] {
    let path = Self.repositoryPath(owner, name) + "/branches"
    let response = try await get(
      path, query: [URLQueryItem(name: "per_page", value: "\(configuration.perPage)")])
    return try decode([GitHubBranch].self, from: response, path: path)
  }

  /// The `count` most recent commits of the default branch (`GET .../commits`); none for an
  /// empty repository, for which GitHub answers 409 ("Git Repository is empty.").
  public func commits(
    owner: String, name: String, count: Int = 10
  ) async throws(GitHubError)
    -> [GitHubCommit]
  {
    let path = Self.repositoryPath(owner, name) + "/commits"
    let response: GitHubResponse
    do {
      response = try await get(
        path, query: [URLQueryItem(name: "per_page", value: "\(max(1, min(count, 100)))")])
    } catch .httpStatus(409, _, _) {
      return []
    }
    return try decode([GitHubCommit].self, from: response, path: path)
  }

  /// Everything the detail screen shows: metadata, README, branches and recent commits. An
  /// empty repository (no commit yet) loads with no README, branches or commits.
  public func repositoryDetail(
    owner: String, name: String
  ) async throws(GitHubError)
    -> RepositoryDetail
  {
    var detail = RepositoryDetail()
    detail.summary = try await repository(owner: owner, name: name).summary
    detail.readme = try await readme(owner: owner, name: name)
    detail.branches = try await branches(owner: owner, name: name).map(\.branch)
    detail.commits = try await commits(owner: owner, name: name).map(\.summary)
    detail.status = .loaded
    return detail
  }

  private func decode<T: Decodable>(
    _ type: T.Type, from response: GitHubResponse, path: String
  ) throws(GitHubError) -> T {
    do {
      return try JSONDecoder().decode(type, from: response.body)
    } catch {
      throw .invalidResponse(path: path, reason: "cannot decode \(T.self): \(error)")
    }
  }

  private static func repositoryPath(_ owner: String, _ name: String) -> String {
    "/repos/\(segment(owner))/\(segment(name))"
  }

  private static func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? text
  }
}
