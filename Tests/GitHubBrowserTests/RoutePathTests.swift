import GitHubBrowser
import Testing

/// Screens and their page paths, both ways.
@Suite struct RoutePathTests {
  static let screens: [(Route.Screen, String)] = [
    (.repositories(.signedInUser), "/"),
    (.bookmarks, "/bookmarks"),
    (.repositories(.owner("ada")), "/ada"),
    (.repositories(.owner("octo-org")), "/octo-org"),
    (.repository(owner: "ada", name: "cinder-server"), "/ada/cinder-server"),
    (.repository(owner: "Ada", name: "my_repo.swift"), "/Ada/my_repo.swift"),
  ]

  @Test(arguments: screens) func aScreensPathReadsBackAsTheScreen(
    screen: Route.Screen, path: String
  ) {
    #expect(screen.path == path)
    #expect(Route.Screen(path: path) == screen)
  }

  @Test func aTrailingSlashIsAllowed() {
    #expect(Route.Screen(path: "/ada/") == .repositories(.owner("ada")))
    #expect(Route.Screen(path: "/ada/atlas/") == .repository(owner: "ada", name: "atlas"))
    #expect(Route.Screen(path: "/bookmarks/") == .bookmarks)
  }

  @Test(arguments: [
    "", "ada", "//", "/ada//atlas", "/a/b/c", "/api", "/api/view", "/API/status", "/assets",
    "/assets/page.js", "/-ada", "/ada lovelace", "/ada/two words", "/ada/..", "/ada/.",
    "/ada/<script>", "/ada%2Fatlas/x", "/" + String(repeating: "a", count: 40),
    "/ada/" + String(repeating: "r", count: 101), "/émile",
  ])
  func aPathThatNamesNoScreenIsNil(path: String) {
    #expect(Route.Screen(path: path) == nil)
  }
}
