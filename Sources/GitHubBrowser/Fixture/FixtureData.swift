/// The recorded world the fixture API serves: owners, their repositories, READMEs, branches
/// and commits. Generated from fixed word lists, so every run serves the same bytes.
struct FixtureData: Sendable {
  struct Owner: Sendable {
    var login: String
    var id: Int
    var isOrganization: Bool
    var name: String?
    var repositories: [Repository]
  }

  struct Repository: Sendable {
    var id: Int
    var owner: String
    var ownerID: Int
    var ownerIsOrganization: Bool
    var name: String
    var description: String?
    var language: String?
    var stars: Int
    var forks: Int
    var isPrivate: Bool
    var createdAt: String
    var updatedAt: String
    var readme: String?
    var branches: [String]
    var commits: [Commit]

    var fullName: String { "\(owner)/\(name)" }
    /// Whether it has no commit yet, like a repository created without a README.
    var isEmpty: Bool { commits.isEmpty }
  }

  struct Commit: Sendable {
    var sha: String
    var message: String
    var author: String
    var email: String
    var date: String
  }

  var owners: [Owner]

  /// The login the fixture's `/user` answers with for any bearer token.
  static let signedInLogin = "ada"

  func owner(_ login: String) -> Owner? {
    owners.first { $0.login.lowercased() == login.lowercased() }
  }

  func repository(_ owner: String, _ name: String) -> Repository? {
    self.owner(owner)?.repositories.first { $0.name.lowercased() == name.lowercased() }
  }

  /// The standard fixture: `octo-org` (47 repositories), `ada` (12, one private), `grace` (4,
  /// one private),
  /// `newcomer` (1, empty), `prolix` (1, with text longer than the state keeps), `long-names`
  /// (2, with names longer than GitHub allows), `mallory` (1, whose README tries to run a
  /// script), and the special owners `slowpoke` and `flaky` (1 each).
  static let standard = FixtureData(owners: [
    makeOwner("octo-org", id: 9001, organization: true, name: "Octo Org", count: 47, seed: 1),
    makeOwner(
      "ada", id: 1815, organization: false, name: "Ada Lovelace", count: 12, seed: 2,
      privateIndex: 11),
    makeOwner(
      "grace", id: 1906, organization: false, name: "Grace Hopper", count: 4, seed: 3,
      privateIndex: 3),
    emptied(makeOwner("newcomer", id: 6060, organization: false, name: nil, count: 1, seed: 6)),
    withLongText(
      makeOwner("prolix", id: 7070, organization: false, name: nil, count: 1, seed: 7)),
    withOverlongNames(
      makeOwner("long-names", id: 8080, organization: false, name: nil, count: 2, seed: 8)),
    makeOwner("slowpoke", id: 4242, organization: false, name: nil, count: 1, seed: 4),
    makeOwner("flaky", id: 5050, organization: false, name: nil, count: 1, seed: 5),
    withHostileReadme(
      makeOwner("mallory", id: 6666, organization: false, name: nil, count: 1, seed: 9)),
  ])

  private static let words = [
    "atlas", "beacon", "cinder", "delta", "ember", "fjord", "garnet", "harbor", "iris", "juniper",
    "kestrel", "lumen", "meadow", "nimbus", "orchid", "prairie", "quartz", "raven", "sierra",
    "tundra", "umber", "vortex", "willow", "xenon", "yarrow", "zephyr",
  ]
  private static let kinds = ["kit", "cli", "server", "docs", "lab", "sync", "ui", "db"]
  private static let languages: [String?] = ["Swift", "C", "Go", "Python", nil, "Rust", "Swift"]
  private static let authors = [
    ("Ada Lovelace", "ada@example.com"), ("Grace Hopper", "grace@example.com"),
    ("Alan Turing", "alan@example.com"), ("Edsger Dijkstra", "edsger@example.com"),
  ]
  private static let verbs = ["Add", "Fix", "Document", "Refactor", "Test", "Speed up", "Remove"]
  private static let things = [
    "the parser", "pagination", "the README", "error messages", "the cache", "CI", "logging",
  ]

  private static func makeOwner(
    _ login: String, id: Int, organization: Bool, name: String?, count: Int, seed: Int,
    privateIndex: Int? = nil
  ) -> Owner {
    let repositories = (0..<count).map { index in
      var repository = makeRepository(
        owner: login, ownerID: id, organization: organization, index: index, seed: seed)
      repository.isPrivate = index == privateIndex
      return repository
    }
    return Owner(
      login: login, id: id, isOrganization: organization, name: name,
      repositories: repositories)
  }

  /// `owner` with every repository emptied: no commit, no branch and no README.
  private static func emptied(_ owner: Owner) -> Owner {
    var owner = owner
    for index in owner.repositories.indices {
      owner.repositories[index].commits = []
      owner.repositories[index].branches = []
      owner.repositories[index].readme = nil
    }
    return owner
  }

  private static func makeRepository(
    owner: String, ownerID: Int, organization: Bool, index: Int, seed: Int
  ) -> Repository {
    let word = words[(index * 7 + seed) % words.count]
    let kind = kinds[(index + seed) % kinds.count]
    let name = "\(word)-\(kind)\(index >= words.count ? "-\(index / words.count + 1)" : "")"
    let id = 100_000 * seed + index + 1
    let day = 1 + (index * 3 + seed) % 28
    let commits = (0..<12).map { number in
      let author = authors[(number + index) % authors.count]
      let message =
        "\(verbs[(number + seed) % verbs.count]) \(things[(number * 3 + index) % things.count])"
        + (number % 4 == 0 ? "\n\nLonger explanation of change \(number)." : "")
      return Commit(
        sha: sha(of: "\(owner)/\(name)#\(number)"), message: message, author: author.0,
        email: author.1,
        date: "2026-\(pad(10 - number % 9))-\(pad(day))T\(pad(8 + number % 10)):15:00Z")
    }
    let language = languages[(index + seed) % languages.count]
    let description =
      index % 6 == 5 ? nil : "The \(word) \(kind): example repository \(index + 1) of \(owner)."
    let readme: String? =
      index % 5 == 4
      ? nil
      : "# \(name)\n\n\(description ?? "No description.")\n\n## Usage\n\n```\n\(name) --help\n```\n"
    return Repository(
      id: id, owner: owner, ownerID: ownerID, ownerIsOrganization: organization, name: name,
      description: description, language: language, stars: (index * 37 + seed * 11) % 900,
      forks: (index * 13 + seed) % 120, isPrivate: false,
      createdAt: "2024-\(pad(1 + index % 12))-\(pad(day))T12:00:00Z",
      updatedAt: "2026-11-\(pad(day))T09:30:00Z", readme: readme,
      branches: ["main", "develop", "release/1.\(index % 4)"].prefix(1 + index % 3).map { $0 },
      commits: commits)
  }

  private static func pad(_ number: Int) -> String {
    number < 10 ? "0\(number)" : "\(number)"
  }

  /// A 40-hex-digit stand-in for a commit SHA (FNV-1a, stretched).
  static func sha(of text: String) -> String {
    var hex = ""
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var round = 0
    while hex.count < 40 {
      for byte in "\(round):\(text)".utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      let chunk = String(hash, radix: 16)
      hex += String(repeating: "0", count: 16 - chunk.count) + chunk
      round += 1
    }
    return String(hex.prefix(40))
  }
}
