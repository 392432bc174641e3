import Testing

@testable import GitHubBrowser

/// A load's result is bounded as the state keeps it before a worker sends it.
extension ClientTests {
  @Test func aLoadedListsAndDetailsLongTextIsCutAsTheStateKeepsIt() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let full = try #require(
      try await client.repositories(of: .owner("prolix"), page: 1).items.first)
    let commits = try await client.commits(owner: "prolix", name: full.name)
    let description = try #require(full.description)
    let language = try #require(full.language)

    let list = await client.perform(.repositories(.owner("prolix"), page: 1))
    guard case .repositories(let page)? = list?.outcome, let listed = page.repositories.first
    else {
      Issue.record("the list's load gave \(String(describing: list))")
      return
    }
    expectCut(listed.description, from: description, to: .description)
    expectCut(listed.language, from: language, to: .language)

    let loaded = await client.perform(.repository(owner: "prolix", name: full.name))
    guard case .repository(let detail)? = loaded?.outcome else {
      Issue.record("the detail's load gave \(String(describing: loaded))")
      return
    }
    #expect(detail.summary == listed)
    #expect(detail.commits.count == 10)
    for (kept, commit) in zip(detail.commits, commits) {
      expectCut(kept.title, from: commit.summary.title, to: .commitTitle)
      expectCut(kept.author, from: commit.commit.author.name, to: .personName)
    }
  }

  @Test func aLoadWithANameLongerThanGitHubAllowsFailsSayingSo() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture)
    let names = try await client.repositories(of: .owner("long-names"), page: 1).items.map(\.name)
    #expect(names.count == 2)

    let list = await client.perform(.repositories(.owner("long-names"), page: 1))
    guard case .failed(let listFailure)? = list?.outcome else {
      Issue.record("the list's load gave \(String(describing: list))")
      return
    }
    #expect(listFailure.kind == .server)
    #expect(listFailure.message.hasPrefix("GitHub sent a repository name of 116 bytes"))

    let detail = await client.perform(.repository(owner: "long-names", name: names[0]))
    guard case .failed(let detailFailure)? = detail?.outcome else {
      Issue.record("the detail's load gave \(String(describing: detail))")
      return
    }
    #expect(detailFailure.kind == .server)
    #expect(
      detailFailure.message.hasPrefix(
        "GitHub sent a branch name of 314 bytes, longer than one can be (255): 'feature/"))
  }

  @Test func aFailuresLongMessageIsCutAsTheStateKeepsIt() async throws {
    let fixture = try makeFixture()
    defer { fixture.stop() }
    let client = makeClient(fixture, retries: 0)
    let result = await client.perform(.repositories(.owner("blocked"), page: 1))
    guard case .failed(let failure)? = result?.outcome else {
      Issue.record("the load gave \(String(describing: result))")
      return
    }
    #expect(failure.kind == .server)
    expectCut(
      failure.message, from: "GitHub answered 451: " + FixtureData.blockedMessage, to: .message)
  }
}
