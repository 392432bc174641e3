import Tandem
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The examples of the Thunks, Observation, EventStores, ActionRegistry and Recording articles,
// compiled and run, so the articles stay true.

private enum ThunksArticle {
  struct AppState: Equatable, Sendable {
    var user: String?
    var loading = false
  }
  struct SetLoading: Action, Equatable { var loading: Bool }
  struct SetUser: Action, Equatable { var name: String? }

  static let appReducer: InoutReducer<AppState> = { state, action in
    switch action {
    case let set as SetLoading: state.loading = set.loading
    case let set as SetUser: state.user = set.name
    default: break
    }
  }

  static func loadUser(_ fetch: @escaping @Sendable () async throws -> String) -> Thunk<AppState> {
    Thunk(id: "user", cancelsInFlight: true) { dispatch, getState in
      dispatch(SetLoading(loading: true))
      let name = try? await fetch()
      if Task.isCancelled { return }
      dispatch(SetUser(name: name))
      dispatch(SetLoading(loading: false))
    }
  }
}

private enum RegistryArticle {
  struct AddBookmark: Action, Codable { var url: String }
  struct RemoveBookmark: Action, Codable { var url: String }

  struct Bookmarks: Equatable, Sendable { var urls: [String] = [] }

  static let bookmarksReducer: InoutReducer<Bookmarks> = { state, action in
    switch action {
    case let add as AddBookmark: state.urls.append(add.url)
    case let remove as RemoveBookmark: state.urls.removeAll { $0 == remove.url }
    default: break
    }
  }
}

private enum EventStoresArticle {
  enum ButtonEvent {
    case plus
    case minus
  }

  static let itemQuantityReducer: EventStore<Int, ButtonEvent>.Reducer = { state, event in
    switch event {
    case .plus: state + 1
    case .minus: state - 1
    }
  }

  static let itemQuantityClamper: EventStore<Int, ButtonEvent>.Reducer = { state, _ in
    min(max(state, 0), 10)
  }

  enum PinnedEvent: Codable, Sendable {
    case increment, minus, add(Int)

    enum CodingKeys: String, CodingKey {
      case increment = "plus"
      case minus, add
    }
  }
}

@Suite("Documentation examples", .timeLimit(.minutes(1)))
struct DocumentationExampleTests {
  @Test("the Thunks article's examples run as described")
  func thunksArticle() async {
    typealias AppState = ThunksArticle.AppState
    let thunks = ThunkMiddleware<AppState>()
    let store = Store(
      reducer: ThunksArticle.appReducer, state: AppState(), middleware: [thunks.middleware])
    store.dispatch(ThunksArticle.loadUser { "Ann" })
    await thunks.waitUntilIdle()
    #expect(store.state == AppState(user: "Ann", loading: false))

    let signOut = Thunk<AppState> { dispatch, getState in
      guard getState()?.user != nil else { return }
      dispatch(ThunksArticle.SetUser(name: nil))
    }
    store.dispatch(signOut)
    #expect(store.state.user == nil)

    let outcome = await ThunkExpectation(ThunksArticle.loadUser { "Ann" }, state: AppState())
      .dispatches(ThunksArticle.SetLoading(loading: true))
      .dispatches(ThunksArticle.SetUser.self) { $0.name == "Ann" }
      .dispatches(ThunksArticle.SetLoading(loading: false))
      .run()
    #expect(outcome.failures == [])
  }

  @Test("the Observation article's loop sees the current and the new user")
  func observationArticle() async {
    typealias AppState = ThunksArticle.AppState
    let store = Store<AppState>(reducer: ThunksArticle.appReducer, state: AppState())
    let (seen, report) = AsyncStream<String>.makeStream()
    let watcher = Task {
      for await name in store.values(\.user) {
        report.yield("user: \(name ?? "none")")
      }
    }
    var lines = seen.makeAsyncIterator()
    #expect(await lines.next() == "user: none")
    store.dispatch(ThunksArticle.SetUser(name: "Ann"))
    #expect(await lines.next() == "user: Ann")
    watcher.cancel()
  }

  @Test("the EventStores article's counter is clamped and its text observed")
  func eventStoresArticle() async throws {
    typealias ButtonEvent = EventStoresArticle.ButtonEvent
    let store = EventStore<Int, ButtonEvent>(
      state: 1,
      reducers: [EventStoresArticle.itemQuantityReducer, EventStoresArticle.itemQuantityClamper])
    store.consume(event: .plus)
    #expect(store.value == 2)
    store.consume(event: .minus)
    store.consume(event: .minus)
    store.consume(event: .minus)
    #expect(store.value == 0)
    for _ in 0..<12 { store.consume(event: .plus) }
    #expect(store.value == 10)

    let text = store.map { String(describing: $0) }
    #expect(text.value == "10")
    var texts = text.makeAsyncIterator()
    #expect(await texts.next() == "10")
    store.consume(event: .plus)  // clamped: still "10", skipped
    store.consume(event: .minus)
    #expect(await texts.next() == "9")
    #expect(text.map(\.count).value == 1)

    let registry = ActionRegistry()
      .registering(events: EventStoresArticle.PinnedEvent.self, prefix: "button.")
    let (tag, payload) = try registry.encode(EventAction(EventStoresArticle.PinnedEvent.increment))
    #expect(tag == "button.plus")
    #expect(payload == Array(#"{"plus":{}}"#.utf8))
    #expect(
      try registry.encode(EventAction(EventStoresArticle.PinnedEvent.add(2))).payload
        == Array(#"{"add":{"_0":2}}"#.utf8))
  }

  @Test("the ActionRegistry article's round trip gives the documented payload")
  func registryArticle() throws {
    let registry = ActionRegistry()
      .registering(RegistryArticle.AddBookmark.self, tag: "bookmark.add")
      .registering(RegistryArticle.RemoveBookmark.self, tag: "bookmark.remove")
    let (tag, payload) = try registry.encode(RegistryArticle.AddBookmark(url: "https://swift.org"))
    #expect(tag == "bookmark.add")
    #expect(payload == Array(#"{"url":"https://swift.org"}"#.utf8))
    let action = try registry.decode(tag: tag, payload: payload)
    #expect(action is RegistryArticle.AddBookmark)
  }

  @Test("the Recording article's recording replays to the store's state")
  func recordingArticle() throws {
    typealias Bookmarks = RegistryArticle.Bookmarks
    let path = "/tmp/tandem-article-\(UInt64.random(in: 0...UInt64.max)).jsonl"
    defer { unlink(path) }
    let registry = ActionRegistry()
      .registering(RegistryArticle.AddBookmark.self, tag: "bookmark.add")
      .registering(RegistryArticle.RemoveBookmark.self, tag: "bookmark.remove")
    let recorder = try ActionRecorder(path: path, registry: registry)
    let store = Store(
      reducer: RegistryArticle.bookmarksReducer, state: Bookmarks(),
      middleware: [createThunkMiddleware(), recorder.middleware()])
    store.dispatch(RegistryArticle.AddBookmark(url: "https://swift.org"))
    store.dispatch(RegistryArticle.AddBookmark(url: "https://example.com"))
    store.dispatch(RegistryArticle.RemoveBookmark(url: "https://swift.org"))

    let replay = ActionReplay(registry: registry)
    let now = try replay.state(
      fromFile: path, initialState: Bookmarks(), reducer: RegistryArticle.bookmarksReducer)
    let earlier = try replay.state(
      fromFile: path, initialState: Bookmarks(), reducer: RegistryArticle.bookmarksReducer,
      throughLine: 2)
    #expect(now == store.state)
    #expect(earlier.urls == ["https://swift.org", "https://example.com"])
  }
}
