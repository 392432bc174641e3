import Tandem

/// The state `tandem bench sync` replicates: `count` items (about 100 bytes of canonical JSON
/// each, so 10,000 items make a state of about 1 MB) and a counter of applied bumps.
struct SyncBenchmarkState: Codable, Equatable, Sendable {
  struct Item: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var stars: Int
    var tags: [String]
  }

  var items: [Item]
  var bumps = 0
  var started = false

  init(count: Int) {
    items = (0..<count).map { index in
      Item(
        id: index, title: "Repository number \(index) of the benchmark state",
        stars: index % 97, tags: ["swift", "tag-\(index % 13)"])
    }
  }
}

/// One field of one item changes: `items[index].stars += 1`, and the bump counter.
struct Bump: Action, Codable, Equatable {
  var index: Int
}

/// Tells the benchmark's followers to start sending.
struct StartSending: Action, Codable, Equatable {}

let syncBenchmarkRegistry = ActionRegistry()
  .registering(Bump.self, tag: "bench.bump")
  .registering(StartSending.self, tag: "bench.start")

func syncBenchmarkReducer(_ state: inout SyncBenchmarkState, _ action: any Action) {
  switch action {
  case let bump as Bump:
    state.items[bump.index % state.items.count].stars += 1
    state.bumps += 1
  case is StartSending:
    state.started = true
  default:
    break
  }
}
