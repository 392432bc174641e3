import Foundation
import GitHubBrowser
import MicroHTTP
import TandemSync
import Testing

/// The page at every screen's path, its assets, its security headers, and the answers for paths
/// that name nothing.
@Suite(.timeLimit(.minutes(1))) struct WebPageTests {
  /// A front end of a new service, for `body`.
  func withFrontEnd(_ body: (WebFrontEnd) async throws -> Void) async throws {
    let service = try await ServiceHarness()
    let follower = try await service.follower()
    let web = try WebFrontEnd(follower: follower)
    try await body(web)
    web.stop()
    await service.stop([follower])
  }

  @Test func everyScreensPathServesThePageWithItsPolicy() async throws {
    try await withFrontEnd { web in
      for path in ["/", "/bookmarks", "/ada", "/ada/", "/ada/cinder-server", "/octo-org/x.y_z"] {
        let page = try await HTTPTestClient.request(port: web.port, path: path)
        #expect(page.status == 200, "\(path)")
        #expect(page.headers["content-type"] == "text/html; charset=utf-8", "\(path)")
        let policy = page.headers["content-security-policy"] ?? ""
        #expect(policy.contains("script-src 'self'"), "\(path)")
        #expect(policy.contains("default-src 'none'"), "\(path)")
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(path)")
        #expect(page.headers["x-content-type-options"] == "nosniff", "\(path)")
        #expect(page.body.contains(#"<script src="/assets/page.js" defer></script>"#))
      }
    }
  }

  @Test func thePageHasNoInlineScriptOrStyleAndLoadsNothingFromElsewhere() async throws {
    try await withFrontEnd { web in
      let page = try await HTTPTestClient.request(port: web.port, path: "/ada")
      #expect(!page.body.contains("<script>") && !page.body.contains("<style"))
      #expect(!page.body.contains("onclick=") && !page.body.contains("onload="))
      for path in ["/", "/assets/page.js", "/assets/page.css"] {
        let answer = try await HTTPTestClient.request(port: web.port, path: path)
        #expect(answer.status == 200, "\(path)")
        #expect(!answer.body.contains("http://") && !answer.body.contains("https://"), "\(path)")
        #expect(answer.headers["content-security-policy"] != nil, "\(path)")
      }
      let script = try await HTTPTestClient.request(port: web.port, path: "/assets/page.js")
      #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
      #expect(script.body.contains("new EventSource(\"/api/events?session=\""))
      #expect(script.body.contains("history.pushState"))
      #expect(!script.body.contains("applied at sequence"))
      let style = try await HTTPTestClient.request(port: web.port, path: "/assets/page.css")
      #expect(style.headers["content-type"] == "text/css; charset=utf-8")
    }
  }

  @Test func aPathThatNamesNoScreenIsA404Page() async throws {
    try await withFrontEnd { web in
      for path in ["/a/b/c", "/-bad", "/ada/two%20words", "/assets/nothing.js"] {
        let answer = try await HTTPTestClient.request(port: web.port, path: path)
        #expect(answer.status == 404, "\(path)")
      }
      let page = try await HTTPTestClient.request(port: web.port, path: "/a/b/<script>")
      #expect(page.status == 404)
      #expect(page.body.contains("No such page"))
      #expect(page.body.contains("/a/b/&lt;script&gt;") && !page.body.contains("<script>"))
      #expect(page.headers["content-security-policy"] != nil)
    }
  }

  @Test func anUnknownAPIPathIsAJSON404AndAPageMethodOtherThanGETIs405() async throws {
    try await withFrontEnd { web in
      for path in ["/api", "/api/nothing", "/api/view/extra"] {
        let answer = try await HTTPTestClient.request(port: web.port, path: path)
        #expect(answer.status == 404, "\(path)")
        #expect(answer.headers["content-type"] == "application/json", "\(path)")
        #expect(answer.body.contains(#""error":"no such API path"#), "\(path)")
      }
      let post = try await HTTPTestClient.request(
        port: web.port, method: "POST", path: "/ada", body: "{}")
      #expect(post.status == 405)
      #expect(post.headers["allow"] == "GET, HEAD")
      let view = try await HTTPTestClient.request(port: web.port, path: "/api/view?session=s")
      #expect(view.status == 200)
    }
  }

  @Test func aRepositoryViewCarriesItsReadmeAsSafeHTML() {
    var state = BrowserState()
    var detail = RepositoryDetail()
    detail.readme = "# Title\n\n<script>alert(1)</script> and **bold**"
    detail.status = .loaded
    state.repositories["ada/atlas"] = CacheEntry(detail, lastNavigation: 1)
    state.sessions["s"] = BrowserSession(
      route: Route(screen: .repository(owner: "ada", name: "atlas")), lastNavigation: 1)
    let view = BrowserView(state: state, session: "s", connection: .live)
    #expect(view.readmeHTML?.contains("<h1>Title</h1>") == true)
    #expect(view.readmeHTML?.contains("&lt;script&gt;alert(1)&lt;/script&gt;") == true)
    #expect(view.readmeHTML?.contains("<strong>bold</strong>") == true)
  }
}
