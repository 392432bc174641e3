import Foundation
import GitHubBrowser
import Synchronization
import TandemSync
import Testing

/// Every log line of this test process from the moment ``install()`` is called, passed on to
/// the standard handler as well.
enum LogCapture {
  private static let lines = Mutex<[String]>([])
  private static let installed = Mutex(false)

  struct Handler: TandemLogHandler {
    var inner: any TandemLogHandler
    var logLevel: TandemLogger.Level = .trace
    var metadata: TandemLogger.Metadata = [:]

    func log(_ record: TandemLogRecord) {
      LogCapture.lines.withLock {
        $0.append("\(record.label) \(record.message) \(record.metadata) \(metadata)")
      }
      if record.level >= inner.logLevel { inner.log(record) }
    }
  }

  static func install() {
    installed.withLock { installed in
      guard !installed else { return }
      installed = true
      TandemLogging.bootstrap { label in
        Handler(inner: TandemLogging.standardHandler(label: label))
      }
    }
  }

  static var captured: [String] { lines.withLock { $0 } }
}

/// No token reaches the shared state, the journal, a log line or a page, after a session in
/// which two users signed in, loaded their repositories (private ones included), opened a
/// private repository and bookmarked.
@Suite(.timeLimit(.minutes(1))) struct TokenSecrecyTests {
  @Test func noTokenAppearsInTheJournalTheStateALogLineOrAPage() async throws {
    LogCapture.install()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "token-secrecy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let journal = directory.appendingPathComponent("leader.journal").path
    let service = try await SignInTests.Service(journal: journal)
    let browsers = [SignInBrowser(), SignInBrowser()]
    var privateNames: [String] = []
    for (browser, login) in zip(browsers, ["ada", "grace"]) {
      try await browser.signIn(at: service.url, as: login)
      #expect(try await browser.post(SignInTests.navigateHome(login), to: service.url) == 200)
      let home = try await SignInTests.view(of: login, at: service, for: browser) {
        $0.list?.status == .loaded
      }
      let secret = try #require(home.list?.repositories.first(where: \.isPrivate)?.name)
      privateNames.append(secret)
      let open =
        #"{"tag":"github.navigate","payload":{"session":"\#(login)","route":{"screen":{"repository":{"owner":"\#(login)","name":"\#(secret)"}}}}}"#
      #expect(try await browser.post(open, to: service.url) == 200)
      let bookmark =
        #"{"tag":"github.bookmark.add","payload":{"owner":"\#(login)","name":"\#(secret)"}}"#
      #expect(try await browser.post(bookmark, to: service.url) == 200)
      let detail = try await SignInTests.view(of: login, at: service, for: browser) {
        $0.detail?.status == .loaded
      }
      #expect(detail.detail?.summary?.isPrivate == true)
      for path in ["/", "/bookmarks", "/assets/page.js", "/api/status"] {
        _ = try await browser.request(service.url.appendingPathComponent(path))
      }
    }

    // The secrets: each sign-in's token and id, read from the sign-in files themselves.
    let signIns = service.credentials.directory
    var secrets: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: signIns.path) {
      let data = try Data(contentsOf: signIns.appendingPathComponent(name))
      let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      secrets.append(try #require(fields["token"] as? String))
      secrets.append(String(name.dropLast(".json".count)))
    }
    #expect(secrets.count == 4, "two sign-ins, each a token and an id")

    let state = try JSONEncoder().encode(service.harness.leader.store.state)
    await service.stop()
    var journalBytes = Data()
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
    where name.hasPrefix("leader.journal") {
      journalBytes += try Data(contentsOf: directory.appendingPathComponent(name))
    }
    let journalText = String(decoding: journalBytes, as: UTF8.self)
    let stateText = String(decoding: state, as: UTF8.self)
    // The places searched hold the session's data: the search would find a secret there.
    for name in privateNames {
      #expect(journalText.contains(name), "the journal holds the users' private data")
      #expect(stateText.contains(name))
    }
    let logs = LogCapture.captured
    #expect(logs.contains { $0.contains("signed in: ada") })
    let pages = browsers.flatMap(\.pages)
    for secret in secrets {
      #expect(!journalText.contains(secret), "a secret is in the journal")
      #expect(!stateText.contains(secret), "a secret is in the state")
      #expect(!logs.contains { $0.contains(secret) }, "a secret is in a log line")
      #expect(!pages.contains { $0.contains(secret) }, "a secret is in a page")
    }
  }
}
