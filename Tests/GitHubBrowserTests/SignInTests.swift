import Foundation
import GitHubBrowser
import TandemSync
import Testing

/// GitHub's OAuth web flow through a web front end and the fixture: two users, each seeing
/// their own repositories and bookmarks; a wrong `state`, a reused code, a denied
/// authorization; sign-out.
@Suite(.timeLimit(.minutes(1))) struct SignInTests {
  /// A leader, the fixture, a worker and a front end with sign-in, sharing one sign-in store.
  final class Service: Sendable {
    let harness: ServiceHarness
    let credentials: CredentialStore
    let directory: URL
    let web: WebFrontEnd
    let worker: BrowserWorker
    let followers: [Follower<BrowserState>]
    let running: Task<Void, Never>

    init(journal: String? = nil) async throws {
      harness = try await ServiceHarness(journalPath: journal)
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sign-in-tests-\(UUID().uuidString)")
      credentials = try CredentialStore(directory: directory.appendingPathComponent("sign-ins"))
      let oauth = OAuthConfiguration(
        clientID: "fixture-client-id", clientSecret: "fixture-client-secret",
        webBaseURL: harness.fixture.url, apiBaseURL: harness.fixture.url)
      let webFollower = try await harness.follower()
      web = try WebFrontEnd(follower: webFollower, signIn: oauth, credentials: credentials)
      let workerFollower = try await harness.follower()
      worker = BrowserWorker(
        follower: workerFollower, client: harness.client(), credentials: credentials,
        configuration: .init(workerID: "worker", recheckInterval: .milliseconds(50)))
      followers = [webFollower, workerFollower]
      running = Task { [worker] in await worker.run() }
    }

    var url: URL { URL(string: web.url)! }

    func stop() async {
      running.cancel()
      await running.value
      web.stop()
      await harness.stop(followers)
      try? FileManager.default.removeItem(at: directory)
    }
  }

  /// Waits until `condition` holds of the view of `session`, or fails after 10 s.
  static func view(
    of session: String, at service: Service, for browser: SignInBrowser,
    until condition: (BrowserView) -> Bool
  ) async throws -> BrowserView {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
      let view = try await browser.view(at: service.url, session: session)
      if condition(view) || ContinuousClock.now > deadline { return view }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  static func navigateHome(_ session: String) -> String {
    #"{"tag":"github.navigate","payload":{"session":"\#(session)","route":{"screen":{"repositories":{"_0":{"signedInUser":{}}}}}}}"#
  }

  @Test func twoUsersEachSeeTheirOwnRepositoriesAndBookmarks() async throws {
    let service = try await Service()
    let ada = SignInBrowser()
    let grace = SignInBrowser()
    try await ada.signIn(at: service.url, as: "ada")
    try await grace.signIn(at: service.url, as: "grace")

    #expect(try await ada.post(Self.navigateHome("tab-a"), to: service.url) == 200)
    #expect(try await grace.post(Self.navigateHome("tab-g"), to: service.url) == 200)
    // Grace's tab claims to be ada's: the front end sets the account from the cookie.
    let forged =
      #"{"tag":"github.bookmark.add","payload":{"owner":"grace","name":"x","account":"ada"}}"#
    #expect(try await grace.post(forged, to: service.url) == 200)

    let adaView = try await Self.view(of: "tab-a", at: service, for: ada) {
      $0.list?.status == .loaded
    }
    let graceView = try await Self.view(of: "tab-g", at: service, for: grace) {
      $0.list?.status == .loaded
    }
    #expect(adaView.identity == .signedIn(login: "ada", name: "Ada Lovelace"))
    #expect(graceView.identity == .signedIn(login: "grace", name: "Grace Hopper"))
    let adaRepositories = adaView.list?.repositories ?? []
    let graceRepositories = graceView.list?.repositories ?? []
    #expect(adaRepositories.count == 12)
    #expect(adaRepositories.allSatisfy { $0.owner == "ada" })
    #expect(adaRepositories.count { $0.isPrivate } == 1)
    #expect(graceRepositories.count == 4)
    #expect(graceRepositories.allSatisfy { $0.owner == "grace" })
    #expect(graceRepositories.count { $0.isPrivate } == 1)
    #expect(adaView.bookmarks.isEmpty)
    #expect(graceView.bookmarks == [Bookmark(owner: "grace", name: "x")])
    await service.stop()
  }

  @Test func aPrivateRepositoryOfOneUserIsNotShownToAnother() async throws {
    let service = try await Service()
    let ada = SignInBrowser()
    let grace = SignInBrowser()
    try await ada.signIn(at: service.url, as: "ada")
    try await grace.signIn(at: service.url, as: "grace")
    #expect(try await ada.post(Self.navigateHome("home"), to: service.url) == 200)
    let home = try await Self.view(of: "home", at: service, for: ada) {
      $0.list?.status == .loaded
    }
    let secret = try #require(
      home.list?.repositories.first(where: \.isPrivate)?.name, "ada has a private repository")
    let open =
      #"{"tag":"github.navigate","payload":{"session":"S","route":{"screen":{"repository":{"owner":"ada","name":"\#(secret)"}}}}}"#
    #expect(
      try await ada.post(open.replacingOccurrences(of: "\"S\"", with: "\"a\""), to: service.url)
        == 200)
    #expect(
      try await grace.post(open.replacingOccurrences(of: "\"S\"", with: "\"g\""), to: service.url)
        == 200)
    let adaView = try await Self.view(of: "a", at: service, for: ada) {
      $0.detail?.status == .loaded
    }
    let graceView = try await Self.view(of: "g", at: service, for: grace) {
      if case .failed = $0.detail?.status { return true }
      return false
    }
    #expect(adaView.detail?.summary?.isPrivate == true)
    #expect(graceView.detail?.summary == nil)
    if case .failed(let failure) = graceView.detail?.status {
      #expect(failure.kind == .notFound)
    } else {
      Issue.record(
        "grace's view of ada's private repository: \(String(describing: graceView.detail))")
    }
    await service.stop()
  }

  @Test func aCallbackWithAnotherStateSignsNobodyIn() async throws {
    let service = try await Service()
    let browser = SignInBrowser()
    let page = try await browser.startSignIn(at: service.url)
    var callback = URLComponents(
      url: try await browser.pick("sign-in-ada", on: page), resolvingAgainstBaseURL: false)!
    callback.queryItems = callback.queryItems?.map {
      $0.name == "state" ? URLQueryItem(name: "state", value: "not-the-one-started") : $0
    }
    let answer = try await browser.request(callback.url!)
    #expect(answer.status == 400)
    #expect(answer.body.contains("could not be checked"))
    #expect(browser.cookies["tandem_signin"] == nil)
    #expect(try await browser.view(at: service.url, session: "s").signInRequired)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: service.credentials.directory.path)
        .isEmpty)
    await service.stop()
  }

  @Test func aCodeWorksOnce() async throws {
    let service = try await Service()
    let first = SignInBrowser()
    let page = try await first.startSignIn(at: service.url)
    let pending = try #require(first.cookies["tandem_oauth"])
    let callback = try await first.pick("sign-in-ada", on: page)
    #expect(try await first.request(callback).status == 302)
    #expect(first.cookies["tandem_signin"] != nil)

    // The same callback replayed, with the state cookie it started with: GitHub (here the
    // fixture) refuses the used code, and nothing is kept.
    let replay = SignInBrowser()
    replay.cookies["tandem_oauth"] = pending
    let answer = try await replay.request(callback)
    #expect(answer.status == 400)
    #expect(answer.body.contains("bad_verification_code"))
    #expect(replay.cookies["tandem_signin"] == nil)
    let files = try FileManager.default.contentsOfDirectory(
      atPath: service.credentials.directory.path)
    #expect(files.count == 1, "only the first sign-in is kept: \(files)")
    await service.stop()
  }

  @Test func aDeniedAuthorizationSignsNobodyIn() async throws {
    let service = try await Service()
    let browser = SignInBrowser()
    let page = try await browser.startSignIn(at: service.url)
    let callback = try await browser.pick("deny", on: page)
    #expect(callback.query?.contains("error=access_denied") == true)
    let answer = try await browser.request(callback)
    #expect(answer.status == 403)
    #expect(answer.body.contains("Sign-in cancelled"))
    #expect(browser.cookies["tandem_signin"] == nil)
    #expect(try await browser.view(at: service.url, session: "s").signInRequired)
    await service.stop()
  }

  @Test func signedOutBrowsersMayNotActAndSignOutForgetsTheToken() async throws {
    let service = try await Service()
    let browser = SignInBrowser()
    #expect(try await browser.post(Self.navigateHome("s"), to: service.url) == 401)
    try await browser.signIn(at: service.url, as: "grace")
    #expect(service.credentials.token(forAccount: "grace") != nil)
    let view = try await browser.view(at: service.url, session: "s")
    #expect(view.canSignOut && !view.signInRequired)
    let out = try await browser.request(
      service.url.appendingPathComponent("api/auth/signout"), method: "POST")
    #expect(out.status == 303)
    #expect(browser.cookies["tandem_signin"] == nil)
    #expect(service.credentials.token(forAccount: "grace") == nil)
    #expect(try await browser.view(at: service.url, session: "s").signInRequired)
    await service.stop()
  }

  @Test func aSignInOutlivesARestartOfTheFrontEnd() async throws {
    let service = try await Service()
    let browser = SignInBrowser()
    try await browser.signIn(at: service.url, as: "grace")
    service.web.stop()
    // Another front end (a restarted one) on the same sign-in store knows the browser.
    let follower = try await service.harness.follower()
    let restarted = try WebFrontEnd(
      follower: follower,
      signIn: OAuthConfiguration(
        clientID: "fixture-client-id", clientSecret: "fixture-client-secret",
        webBaseURL: service.harness.fixture.url, apiBaseURL: service.harness.fixture.url),
      credentials: CredentialStore(directory: service.credentials.directory))
    let view = try await browser.view(at: URL(string: restarted.url)!, session: "s")
    #expect(view.identity == .signedIn(login: "grace", name: "Grace Hopper"))
    restarted.stop()
    await follower.stop()
    await service.stop()
  }

  @Test func signInFilesArePrivate() async throws {
    let service = try await Service()
    try await SignInBrowser().signIn(at: service.url, as: "ada")
    let directory = service.credentials.directory.path
    let attributes = try FileManager.default.attributesOfItem(atPath: directory)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      let file = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
      #expect((file[.posixPermissions] as? Int) == 0o600, "\(name)")
    }
    await service.stop()
  }
}
