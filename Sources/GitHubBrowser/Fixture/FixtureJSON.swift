import Foundation

/// Renders fixture data in the shapes of GitHub's REST responses (the usual fields, not all).
enum FixtureJSON {
  static func owner(login: String, id: Int, organization: Bool, base: String) -> [String: Any] {
    [
      "login": login, "id": id, "node_id": nodeID("U", id),
      "avatar_url": "\(base)/avatars/\(login)", "url": "\(base)/users/\(login)",
      "html_url": "https://github.example/\(login)",
      "repos_url": "\(base)/users/\(login)/repos",
      "type": organization ? "Organization" : "User", "site_admin": false,
    ]
  }

  static func user(_ owner: FixtureData.Owner, base: String) -> [String: Any] {
    var user = self.owner(
      login: owner.login, id: owner.id, organization: owner.isOrganization, base: base)
    user["name"] = owner.name ?? NSNull()
    user["public_repos"] = owner.repositories.filter { !$0.isPrivate }.count
    user["created_at"] = "2020-01-01T00:00:00Z"
    return user
  }

  static func repository(_ repository: FixtureData.Repository, base: String) -> [String: Any] {
    let url = "\(base)/repos/\(repository.fullName)"
    return [
      "id": repository.id, "node_id": nodeID("R", repository.id), "name": repository.name,
      "full_name": repository.fullName, "private": repository.isPrivate,
      "owner": owner(
        login: repository.owner, id: repository.ownerID,
        organization: repository.ownerIsOrganization, base: base),
      "html_url": "https://github.example/\(repository.fullName)",
      "description": repository.description ?? NSNull(), "fork": false, "url": url,
      "branches_url": "\(url)/branches{/branch}", "commits_url": "\(url)/commits{/sha}",
      "created_at": repository.createdAt, "updated_at": repository.updatedAt,
      "pushed_at": repository.updatedAt, "homepage": NSNull(),
      "size": repository.isEmpty ? 0 : 100 + repository.id % 5000,
      "stargazers_count": repository.stars, "watchers_count": repository.stars,
      "language": repository.language ?? NSNull(), "forks_count": repository.forks,
      "open_issues_count": repository.id % 17, "default_branch": "main",
      "visibility": repository.isPrivate ? "private" : "public", "archived": false,
      "topics": [repository.language?.lowercased() ?? "misc", "example"],
    ]
  }

  static func readme(
    _ repository: FixtureData.Repository, text: String, base: String
  )
    -> [String: Any]
  {
    let url = "\(base)/repos/\(repository.fullName)/contents/README.md"
    // GitHub wraps the base64 text in lines of 60 characters, each ending with "\n".
    let encoded = Data(text.utf8).base64EncodedString()
    var wrapped = ""
    var rest = Substring(encoded)
    while !rest.isEmpty {
      wrapped += rest.prefix(60) + "\n"
      rest = rest.dropFirst(60)
    }
    return [
      "type": "file", "encoding": "base64", "size": text.utf8.count, "name": "README.md",
      "path": "README.md", "content": wrapped, "sha": FixtureData.sha(of: text), "url": url,
      "html_url": "https://github.example/\(repository.fullName)/blob/main/README.md",
      "download_url": "https://raw.github.example/\(repository.fullName)/main/README.md",
    ]
  }

  static func branch(
    _ name: String, of repository: FixtureData.Repository, base: String
  )
    -> [String: Any]
  {
    let sha = FixtureData.sha(of: "\(repository.fullName)@\(name)")
    return [
      "name": name,
      "commit": ["sha": sha, "url": "\(base)/repos/\(repository.fullName)/commits/\(sha)"],
      "protected": name == "main",
    ]
  }

  static func commit(
    _ commit: FixtureData.Commit, of repository: FixtureData.Repository, base: String
  ) -> [String: Any] {
    let url = "\(base)/repos/\(repository.fullName)/commits/\(commit.sha)"
    let signature: [String: Any] = [
      "name": commit.author, "email": commit.email, "date": commit.date,
    ]
    return [
      "sha": commit.sha, "node_id": nodeID("C", Int(commit.sha.prefix(8), radix: 16) ?? 0),
      "url": url,
      "html_url": "https://github.example/\(repository.fullName)/commit/\(commit.sha)",
      "commit": [
        "author": signature, "committer": signature, "message": commit.message,
        "comment_count": 0,
        "tree": ["sha": FixtureData.sha(of: "tree:" + commit.sha), "url": url + "/tree"],
      ],
      "author": NSNull(), "committer": NSNull(),
      "parents": [] as [Any],
    ]
  }

  static func error(_ message: String) -> Data {
    let body: [String: Any] = [
      "message": message,
      "documentation_url": "https://docs.github.com/rest",
    ]
    return try! JSONSerialization.data(
      withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
  }

  private static func nodeID(_ kind: String, _ id: Int) -> String {
    "\(kind)_fixture\(id)"
  }
}
