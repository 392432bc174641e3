import Synchronization

#if canImport(FoundationNetworking)
  import Foundation
#else
  import Foundation
#endif

/// Responses kept by URL (and `Accept`) with their `ETag`, for conditional requests: the client
/// sends `If-None-Match` and reuses the body when GitHub answers 304 (which does not count
/// against the rate limit).
final class ETagCache: Sendable {
  struct Entry: Sendable {
    var etag: String
    var body: Data
    var contentType: String?
    var link: String?
  }

  private struct Storage {
    var entries: [String: Entry] = [:]
    var order: [String] = []
    var hits = 0
  }

  private let capacity: Int
  private let storage = Mutex(Storage())

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  func entry(for key: String) -> Entry? {
    storage.withLock { $0.entries[key] }
  }

  func store(_ entry: Entry, for key: String) {
    guard capacity > 0 else { return }
    storage.withLock { storage in
      if storage.entries.updateValue(entry, forKey: key) == nil {
        storage.order.append(key)
        if storage.order.count > capacity {
          storage.entries[storage.order.removeFirst()] = nil
        }
      }
    }
  }

  func recordHit() {
    storage.withLock { $0.hits += 1 }
  }

  var hits: Int { storage.withLock { $0.hits } }
}
