import Foundation
import GitHubBrowser
import Tandem
import Testing

/// The browser's Tandem actions: their tags and payloads, the store reducer, the validation.
@Suite struct BrowserActionTests {
  let route = Route(screen: .repository(owner: "ada", name: "cinder-server"))
  let result = LoadResult(
    .repositories(
      RepositoryPage(repositories: [RepositorySummary(id: 1, owner: "ada", name: "x")])),
    rateLimit: RateLimitStatus(limit: 60, remaining: 59, resetAt: 1_800_000_000))

  var everyAction: [(any BrowserActionConvertible, String)] {
    [
      (AddBookmark(owner: "ada", name: "x"), "github.bookmark.add"),
      (RemoveBookmark(owner: "ada", name: "x"), "github.bookmark.remove"),
      (Navigate(session: "s1", route: route), "github.navigate"),
      (EndSession(session: "s1"), "github.session.end"),
      (
        RequestLoad(target: .repositories(.owner("ada"), page: 2), session: "s"),
        "github.load.request"
      ),
      (IdentityResolved(identity: .signedIn(login: "ada", name: nil)), "github.identity.resolved"),
      (ClaimLoad(id: 1, workerID: "w1", now: 10, expiresAt: 20), "github.load.claim"),
      (ReleaseLoad(id: 1, workerID: "w1"), "github.load.release"),
      (CompleteLoad(id: 1, workerID: "w1", result: result), "github.load.complete"),
    ]
  }

  @Test func everyActionTravelsUnderItsTagAndDecodesEqual() throws {
    #expect(browserRegistry.tags.count == everyAction.count)
    for (action, tag) in everyAction {
      let encoded = try browserRegistry.encode(action)
      #expect(encoded.tag == tag)
      let decoded = try browserRegistry.decode(tag: tag, payload: encoded.payload)
      #expect((decoded as? any BrowserActionConvertible)?.browserAction == action.browserAction)
    }
  }

  @Test func bookmarkPayloadIsPlainJSON() throws {
    let encoded = try browserRegistry.encode(AddBookmark(owner: "ada", name: "x"))
    #expect(String(decoding: encoded.payload, as: UTF8.self) == #"{"name":"x","owner":"ada"}"#)
  }

  @Test func userTagsAreTheBrowserSideOnly() {
    #expect(browserUserTags.allSatisfy { browserRegistry.contains(tag: $0) })
    #expect(!browserUserTags.contains("github.load.claim"))
    #expect(!browserUserTags.contains("github.load.complete"))
    #expect(!browserUserTags.contains("github.identity.resolved"))
  }

  @Test func storeReducerAppliesEachActionAsItsEnumCase() {
    for (action, _) in everyAction {
      var viaStore = BrowserState()
      var viaEnum = BrowserState()
      browserReducer(&viaStore, .requestLoad(.repositories(.owner("ada"), page: 1), session: "s"))
      browserReducer(&viaEnum, .requestLoad(.repositories(.owner("ada"), page: 1), session: "s"))
      browserStoreReducer(&viaStore, action)
      browserReducer(&viaEnum, action.browserAction)
      #expect(viaStore == viaEnum)
    }
  }

  @Test func storeReducerIgnoresOtherActions() {
    struct Unrelated: Action {}
    var state = BrowserState()
    browserStoreReducer(&state, Unrelated())
    browserStoreReducer(&state, TandemInit())
    #expect(state == BrowserState())
  }

  @Test func storeDispatchAddsABookmarkOnce() {
    let store = Store<BrowserState>(reducer: browserStoreReducer, state: BrowserState())
    store.dispatch(AddBookmark(owner: "ada", name: "x"))
    store.dispatch(AddBookmark(owner: "ADA", name: "X"))
    #expect(store.state.bookmarks(of: "") == [Bookmark(owner: "ada", name: "x")])
    store.dispatch(RemoveBookmark(owner: "ada", name: "X"))
    #expect(store.state.bookmarks.isEmpty)
  }

  @Test func aNewBookmarkBeyondTheMaximumIsRefusedWithAReason() {
    let store = Store<BrowserState>(reducer: browserStoreReducer, state: BrowserState())
    for index in 0..<BrowserState.maximumBookmarks {
      store.dispatch(AddBookmark(owner: "ada", name: "repo-\(index)"))
    }
    let another = AddBookmark(owner: "ada", name: "one-more")
    let rejection = validateBrowserAction(another, in: store.state)
    #expect(rejection?.code == .refused)
    #expect(
      rejection?.message.contains("at most \(BrowserState.maximumBookmarks) bookmarks") == true)
    // One already kept is not new (its name in any case), and removing makes room.
    #expect(
      validateBrowserAction(AddBookmark(owner: "ADA", name: "REPO-7"), in: store.state) == nil)
    store.dispatch(another)
    #expect(store.state.bookmarks(of: "").count == BrowserState.maximumBookmarks)
    store.dispatch(RemoveBookmark(owner: "ada", name: "repo-0"))
    #expect(validateBrowserAction(another, in: store.state) == nil)
  }

  @Test func validationAcceptsWellFormedActions() {
    for (action, _) in everyAction {
      #expect(validateBrowserAction(action, in: BrowserState()) == nil)
    }
    let selecting = Navigate(
      session: "s", route: Route(screen: .bookmarks, selection: "ada/cinder-server"))
    #expect(validateBrowserAction(selecting, in: BrowserState()) == nil)
    let lastPage = RequestLoad(
      target: .repositories(.owner("ada"), page: BrowserState.maximumListPages), session: "s")
    #expect(validateBrowserAction(lastPage, in: BrowserState()) == nil)
    // An Enterprise Managed User's login: the user's name, '_', the enterprise's short code.
    let managedUser = RequestLoad(target: .repositories(.owner("mona_octo"), page: 1), session: "s")
    #expect(validateBrowserAction(managedUser, in: BrowserState()) == nil)
  }

  @Test func validationRefusesBadNamesSessionsAndPages() {
    let bad: [any Action] = [
      AddBookmark(owner: "ada", name: "two words"),
      AddBookmark(owner: "", name: "x"),
      RemoveBookmark(owner: "a/b", name: "x"),
      Navigate(session: "", route: Route(screen: .bookmarks)),
      Navigate(session: String(repeating: "s", count: 129), route: Route(screen: .bookmarks)),
      Navigate(session: "s", route: Route(screen: .repositories(.owner("no spaces please")))),
      Navigate(
        session: "s",
        route: Route(screen: .bookmarks, selection: String(repeating: "x", count: 1 << 20))),
      Navigate(session: "s", route: Route(screen: .bookmarks, selection: "ada/x/y")),
      EndSession(session: ""),
      RequestLoad(target: .repository(owner: "ada", name: "x"), session: ""),
      RequestLoad(target: .repositories(.owner("ada"), page: 0), session: "s"),
      RequestLoad(
        target: .repositories(.owner("ada"), page: BrowserState.maximumListPages + 1), session: "s"),
      RequestLoad(target: .repository(owner: "ada", name: ".."), session: "s"),
      ClaimLoad(id: 1, workerID: "w1", now: 20, expiresAt: 20),
      CompleteLoad(
        id: 1, workerID: "w1",
        result: LoadResult(
          .failed(LoadFailure(kind: .rateLimited, message: "slow down", retryAt: .max)))),
      CompleteLoad(
        id: 1, workerID: "w1",
        result: LoadResult(
          .repositories(RepositoryPage(repositories: [])),
          rateLimit: RateLimitStatus(limit: 60, remaining: 0, resetAt: -1))),
    ]
    for action in bad {
      let rejection = validateBrowserAction(action, in: BrowserState())
      #expect(rejection?.code == .refused, "\(action)")
      #expect(rejection?.message.isEmpty == false)
    }
  }
}
