import Foundation
import Tandem
import TandemSync

/// Runs blocking `body` on a thread of its own (never on Swift's pool) and awaits its result.
func offThePool<Result: Sendable>(
  _ body: @escaping @Sendable () throws -> Result
) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
  }
}

/// The small state the CLI tests run a real leader of.
struct Shelf: Codable, Equatable, Sendable {
  var books: [String] = []
  var count = 0
}

struct AddBook: Action, Codable, Equatable {
  var title: String
}

let shelfRegistry = ActionRegistry().registering(AddBook.self, tag: "shelf.add")

func shelfReducer(_ state: inout Shelf, _ action: any Action) {
  if let add = action as? AddBook {
    state.books.append(add.title)
    state.count += 1
  }
}

/// A leader of ``Shelf`` on loopback tcp with ephemeral ports, unless `configure` says
/// otherwise.
func makeShelfLeader(
  configure: (inout LeaderConfiguration) -> Void = { _ in }
) async throws -> Leader<Shelf> {
  let store = Store<Shelf>(reducer: shelfReducer, state: Shelf())
  var configuration = LeaderConfiguration()
  configuration.heartbeatInterval = .milliseconds(100)
  configure(&configuration)
  return try await Leader(store: store, registry: shelfRegistry, configuration: configuration)
}
