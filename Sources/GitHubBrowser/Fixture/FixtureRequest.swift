import Foundation
import MicroHTTP

/// What a fixture endpoint answers before the common headers are added.
struct FixtureAnswer {
  var status = 200
  var body: Data
  var contentType = "application/json; charset=utf-8"
  var headers: [String: String] = [:]
}

/// One request to the fixture, with the data to answer it from.
struct FixtureRequest {
  let request: HTTPRequest
  let data: FixtureData
  let base: String
  /// The login the request's token signs in as, if it has one.
  let viewer: String?

  var owner: String { request.pathParameters["owner"] ?? "" }
  var repo: String { request.pathParameters["repo"] ?? "" }
  var isSignedIn: Bool {
    guard let authorization = request.headers["Authorization"] else { return false }
    return authorization.hasPrefix("Bearer ") && authorization.count > "Bearer ".count
      || authorization.hasPrefix("token ") && authorization.count > "token ".count
  }

  func user() throws -> FixtureAnswer {
    guard isSignedIn, let owner = data.owner(viewer ?? FixtureData.signedInLogin) else {
      throw FixtureFailure.status(401, "Requires authentication")
    }
    return json(FixtureJSON.user(owner, base: base))
  }

  func userRepositories() throws -> FixtureAnswer {
    guard isSignedIn, let owner = data.owner(viewer ?? FixtureData.signedInLogin) else {
      throw FixtureFailure.status(401, "Requires authentication")
    }
    return try page(owner.repositories, path: "/user/repos")
  }

  func ownerRepositories() throws -> FixtureAnswer {
    guard let found = data.owner(owner) else { throw FixtureFailure.status(404, "Not Found") }
    let visible = found.repositories.filter { !$0.isPrivate }
    return try page(visible, path: "/users/\(found.login)/repos")
  }

  func repository() throws -> FixtureAnswer {
    json(FixtureJSON.repository(try findRepository(), base: base))
  }

  func readme() throws -> FixtureAnswer {
    let repository = try findRepository()
    if repository.isEmpty { throw FixtureFailure.status(404, "This repository is empty.") }
    guard let text = repository.readme else { throw FixtureFailure.status(404, "Not Found") }
    if let accept = request.headers["Accept"], accept.contains("vnd.github.raw") {
      return FixtureAnswer(body: Data(text.utf8), contentType: "application/vnd.github.raw")
    }
    return json(FixtureJSON.readme(repository, text: text, base: base))
  }

  func branches() throws -> FixtureAnswer {
    let repository = try findRepository()
    return json(repository.branches.map { FixtureJSON.branch($0, of: repository, base: base) })
  }

  func commits() throws -> FixtureAnswer {
    let repository = try findRepository()
    if repository.isEmpty { throw FixtureFailure.status(409, "Git Repository is empty.") }
    let perPage = try integer("per_page", default: 30, in: 1...100)
    return json(
      repository.commits.prefix(perPage).map { FixtureJSON.commit($0, of: repository, base: base) })
  }

  private func findRepository() throws -> FixtureData.Repository {
    guard let repository = data.repository(owner, repo),
      !repository.isPrivate
        || (isSignedIn && (viewer ?? FixtureData.signedInLogin) == repository.owner)
    else { throw FixtureFailure.status(404, "Not Found") }
    return repository
  }

  /// A page of `repositories` with GitHub's `Link` header.
  private func page(_ repositories: [FixtureData.Repository], path: String) throws -> FixtureAnswer
  {
    let perPage = try integer("per_page", default: 30, in: 1...100)
    let page = try integer("page", default: 1, in: 1...10_000)
    let last = max(1, (repositories.count + perPage - 1) / perPage)
    let items = repositories.dropFirst((page - 1) * perPage).prefix(perPage)
    var answer = json(items.map { FixtureJSON.repository($0, base: base) })
    var links: [String] = []
    func link(_ number: Int, _ relation: String) {
      links.append("<\(base)\(path)?per_page=\(perPage)&page=\(number)>; rel=\"\(relation)\"")
    }
    if page > 1 { link(page - 1, "prev") }
    if page < last { link(page + 1, "next") }
    if page < last { link(last, "last") }
    if page > 1 { link(1, "first") }
    if !links.isEmpty { answer.headers["Link"] = links.joined(separator: ", ") }
    return answer
  }

  private func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int
  {
    guard let text = request.query[name] else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw FixtureFailure.status(422, "Invalid value for \(name)")
    }
    return number
  }

  private func json(_ value: Any) -> FixtureAnswer {
    let body = try! JSONSerialization.data(
      withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
    return FixtureAnswer(body: body)
  }
}

/// A GitHub-style error answer: the status and `{"message": ...}`.
enum FixtureFailure: Error {
  case status(Int, String)
}
