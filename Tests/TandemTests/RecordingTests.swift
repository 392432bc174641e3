import Synchronization
import Testing

@testable import Tandem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `RLIMIT_FSIZE` as `getrlimit` and `setrlimit` take it.
#if canImport(Glibc)
  private let fileSizeLimit = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#else
  private let fileSizeLimit = RLIMIT_FSIZE
#endif

private struct Shelf: Equatable, Sendable {
  var books: [String] = []
}

private struct Shelve: Action, Codable, Equatable { var title: String }
private struct Unshelve: Action, Codable, Equatable { var title: String }
private struct Unrecorded: Action {}

private let shelfRegistry = ActionRegistry()
  .registering(Shelve.self, tag: "shelf.add")
  .registering(Unshelve.self, tag: "shelf.remove")

private let shelfReducer: Reducer<Shelf> = { action, state in
  var state = state ?? Shelf(books: ["init"])
  switch action {
  case let shelve as Shelve: state.books.append(shelve.title)
  case let unshelve as Unshelve: state.books.removeAll { $0 == unshelve.title }
  default: break
  }
  return state
}

private let shelfInPlaceReducer: InoutReducer<Shelf> = { state, action in
  state = shelfReducer(action, state)
}

/// A path under /tmp that no other test uses; removed when the scope ends.
private struct TemporaryFile: ~Copyable {
  let path = "/tmp/tandem-recording-\(UInt64.random(in: 0...UInt64.max)).jsonl"

  func write(_ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
  }

  func contents() -> String {
    String(decoding: try! POSIXFile.readAll(path), as: UTF8.self)
  }

  deinit {
    unlink(path)
  }
}

/// A clock that advances a quarter second per reading, from a fixed start.
private func steppingClock() -> @Sendable () -> Date {
  let ticks = Counter()
  return { Date(timeIntervalSince1970: 1_764_452_400 + Double(ticks.next()) * 0.25) }
}

private final class Counter: Sendable {
  private let value = Mutex<Int>(0)
  func next() -> Int {
    value.withLock { value in
      defer { value += 1 }
      return value
    }
  }
}

private func recordingStore(_ recorder: ActionRecorder) -> Store<Shelf> {
  Store<Shelf>(
    reducer: shelfReducer, state: Shelf(),
    middleware: [createThunkMiddleware(), recorder.middleware()])
}

@Suite("Recording and replay")
struct RecordingTests {
  @Test("the recorder writes one JSON line per registered action, and skips the others")
  func recordsLines() throws {
    let file = TemporaryFile()
    let recorder = try ActionRecorder(
      path: file.path, registry: shelfRegistry, now: steppingClock())
    let store = recordingStore(recorder)
    store.dispatch(Shelve(title: "Dune"))
    store.dispatch(Unrecorded())
    store.dispatch(Thunk<Shelf> { dispatch, _ in dispatch(Unshelve(title: "Dune \"1\"")) })
    #expect(recorder.recordedCount == 2)
    #expect(
      file.contents() == """
        {"tag":"shelf.add","time":1764452400.0,"payload":{"title":"Dune"}}
        {"tag":"shelf.remove","time":1764452400.25,"payload":{"title":"Dune \\"1\\""}}

        """)
  }

  @Test("replay rebuilds the state the store reached, with either kind of reducer")
  func replayRebuildsState() throws {
    let file = TemporaryFile()
    let recorder = try ActionRecorder(path: file.path, registry: shelfRegistry)
    let store = recordingStore(recorder)
    for index in 0..<20 {
      store.dispatch(Shelve(title: "book \(index)"))
      if index % 3 == 0 { store.dispatch(Unshelve(title: "book \(index / 2)")) }
    }
    let replay = ActionReplay(registry: shelfRegistry)
    let returning = try replay.state(
      fromFile: file.path, initialState: Shelf(), reducer: shelfReducer)
    let inPlace = try replay.state(
      fromFile: file.path, initialState: Shelf(), reducer: shelfInPlaceReducer)
    #expect(returning == store.state)
    #expect(inPlace == store.state)
  }

  @Test("replay through line N gives the state after the N-th action (time travel)")
  func timeTravel() throws {
    let file = TemporaryFile()
    let recorder = try ActionRecorder(path: file.path, registry: shelfRegistry)
    let store = recordingStore(recorder)
    var history: [Shelf] = [store.state]
    for title in ["a", "b", "c", "d"] {
      store.dispatch(Shelve(title: title))
      history.append(store.state)
    }
    let replay = ActionReplay(registry: shelfRegistry)
    for line in 0...4 {
      let state = try replay.state(
        fromFile: file.path, initialState: Shelf(), reducer: shelfReducer, throughLine: line)
      #expect(state == history[line])
    }
  }

  @Test("a damaged line after the last line replayed does not matter")
  func damageAfterStop() throws {
    let file = TemporaryFile()
    file.write(
      """
      {"tag":"shelf.add","time":1,"payload":{"title":"a"}}
      {"tag":"shelf.add","time":2,"payload":{"title":"b"}}
      {"tag":"shelf.add","ti
      """)
    let state = try ActionReplay(registry: shelfRegistry).state(
      fromFile: file.path, initialState: Shelf(), reducer: shelfReducer, throughLine: 2)
    #expect(state.books == ["a", "b"])
  }

  @Test("a line that is not JSON is reported with its line number")
  func malformedLine() {
    let file = TemporaryFile()
    file.write(
      """
      {"tag":"shelf.add","time":1,"payload":{"title":"a"}}
      {"tag":"shelf.add","time":2,"payload":{"title":
      {"tag":"shelf.add","time":3,"payload":{"title":"c"}}
      """)
    #expect {
      try ActionReplay(registry: shelfRegistry).actions(inFile: file.path)
    } throws: { error in
      guard let error = error as? ActionReplayError, case .malformedLine(2, _) = error else {
        return false
      }
      return error.line == 2
    }
  }

  @Test("a line without a time is malformed, naming the missing key")
  func missingTime() {
    let lines = Array(#"{"tag":"shelf.add","payload":{"title":"a"}}"#.utf8)
    #expect {
      try ActionReplay(registry: shelfRegistry).actions(inJSONLines: lines)
    } throws: { error in
      guard let error = error as? ActionReplayError, case .malformedLine(1, let reason) = error
      else { return false }
      return reason.contains("\"time\"")
    }
  }

  @Test("an unknown tag is reported with its line number")
  func unknownTagLine() {
    let lines = Array(
      """
      {"tag":"shelf.add","time":1,"payload":{"title":"a"}}

      {"tag":"shelf.burn","time":2,"payload":{}}
      """.utf8)
    #expect(throws: ActionReplayError.badAction(line: 3, .unknownTag("shelf.burn"))) {
      try ActionReplay(registry: shelfRegistry).actions(inJSONLines: lines)
    }
  }

  @Test("a payload that does not decode is reported with its line number and the reason")
  func undecodableLine() {
    let lines = Array(#"{"tag":"shelf.remove","time":1,"payload":{"name":"a"}}"#.utf8)
    #expect {
      try ActionReplay(registry: shelfRegistry).actions(inJSONLines: lines)
    } throws: { error in
      guard let error = error as? ActionReplayError,
        case .badAction(1, .undecodable("shelf.remove", let reason)) = error
      else { return false }
      return reason.contains("\"title\"")
    }
  }

  @Test("recorded actions carry their line, tag and time; blank lines are counted, not read")
  func recordedActionFields() throws {
    let lines = Array(
      """

      {"tag":"shelf.add","time":1764452400.5,"payload":{"title":"a"}}
      \("   ")
      {"tag":"shelf.remove","time":1764452401,"payload":{"title":"a"}}

      """.utf8)
    let actions = try ActionReplay(registry: shelfRegistry).actions(inJSONLines: lines)
    #expect(actions.map(\.line) == [2, 4])
    #expect(actions.map(\.tag) == ["shelf.add", "shelf.remove"])
    #expect(actions[0].time == Date(timeIntervalSince1970: 1_764_452_400.5))
    #expect(actions[1].action as? Unshelve == Unshelve(title: "a"))
  }

  @Test("with no initial state, replay starts from the reducer's answer to TandemInit")
  func nilInitialState() throws {
    let lines = Array(#"{"tag":"shelf.add","time":1,"payload":{"title":"a"}}"#.utf8)
    let replay = ActionReplay(registry: shelfRegistry)
    let actions = try replay.actions(inJSONLines: lines)
    let state = ActionReplay.apply(actions, to: nil, reducer: shelfReducer)
    #expect(state.books == ["init", "a"])
  }

  @Test("a second recorder on the same file appends")
  func appends() throws {
    let file = TemporaryFile()
    for title in ["a", "b"] {
      let recorder = try ActionRecorder(path: file.path, registry: shelfRegistry)
      recordingStore(recorder).dispatch(Shelve(title: title))
    }
    let actions = try ActionReplay(registry: shelfRegistry).actions(inFile: file.path)
    #expect(actions.map { ($0.action as? Shelve)?.title } == ["a", "b"])
  }

  @Test("a closed recorder passes actions on without recording them")
  func closedRecorder() throws {
    let file = TemporaryFile()
    let recorder = try ActionRecorder(path: file.path, registry: shelfRegistry)
    let store = recordingStore(recorder)
    recorder.close()
    store.dispatch(Shelve(title: "a"))
    #expect(store.state.books == ["a"])
    #expect(try recorder.record(Shelve(title: "b")) == false)
    #expect(file.contents().isEmpty)
  }

  @Test("opening a file in a missing directory throws cannotOpen with ENOENT")
  func cannotOpen() {
    let path = "/nonexistent-tandem-directory/actions.jsonl"
    #expect(throws: ActionRecorderError.cannotOpen(path: path, errno: ENOENT)) {
      try ActionRecorder(path: path, registry: shelfRegistry)
    }
  }

  @Test("replaying a missing file throws cannotRead naming open and ENOENT")
  func cannotRead() {
    let path = "/nonexistent-tandem-directory/actions.jsonl"
    #expect(throws: ActionReplayError.cannotRead(path: path, call: "open", errno: ENOENT)) {
      try ActionReplay(registry: shelfRegistry).actions(inFile: path)
    }
  }

  @Test("a line written in part is cut off again, so the actions recorded after it replay")
  func partialWrite() async throws {
    // In a child process: the file size limit set here would fail other tests' writes.
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let file = TemporaryFile()
      let recorder = try ActionRecorder(path: file.path, registry: shelfRegistry)
      try recorder.record(Shelve(title: "a"))
      // Let the file grow by 5 bytes: the next line's `write` takes 5 bytes, the retry fails.
      signal(SIGXFSZ, SIG_IGN)
      var limit = rlimit()
      getrlimit(fileSizeLimit, &limit)
      let original = limit
      limit.rlim_cur = rlim_t(file.contents().utf8.count + 5)
      setrlimit(fileSizeLimit, &limit)
      let failure = Result { () throws(ActionRecorderError) in
        try recorder.record(Shelve(title: "b"))
      }
      limit = original
      setrlimit(fileSizeLimit, &limit)
      try recorder.record(Shelve(title: "c"))
      let replayed = Result { () throws(ActionReplayError) in
        try ActionReplay(registry: shelfRegistry).actions(inFile: file.path)
          .map { ($0.action as! Shelve).title }
      }
      print("failed with EFBIG:", failure == .failure(.cannotWrite(path: file.path, errno: EFBIG)))
      print("replayed:", replayed)
    }
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    #expect(output == "failed with EFBIG: true\nreplayed: success([\"a\", \"c\"])\n")
  }

  @Test("actions dispatched from many tasks are all recorded as whole lines")
  func concurrentRecording() async throws {
    let file = TemporaryFile()
    let recorder = try ActionRecorder(path: file.path, registry: shelfRegistry)
    let store = recordingStore(recorder)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<50 { store.dispatch(Shelve(title: "\(task)-\(index)")) }
        }
      }
    }
    let actions = try ActionReplay(registry: shelfRegistry).actions(inFile: file.path)
    #expect(actions.count == 400)
    #expect(Set(actions.compactMap { ($0.action as? Shelve)?.title }).count == 400)
    #expect(recorder.failureCount == 0)
  }
}
