import TandemProtocol

/// What happens next in a simulated run, in time order (ties in the order scheduled).
struct EventQueue<Event> {
  private struct Entry {
    var time: Int64
    var order: UInt64
    var event: Event

    func precedes(_ other: Entry) -> Bool {
      time != other.time ? time < other.time : order < other.order
    }
  }

  private var heap: [Entry] = []
  private var scheduled: UInt64 = 0

  var isEmpty: Bool { heap.isEmpty }

  mutating func schedule(_ event: Event, at time: Int64) {
    scheduled += 1
    heap.append(Entry(time: time, order: scheduled, event: event))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  mutating func next() -> (time: Int64, event: Event)? {
    guard !heap.isEmpty else { return nil }
    let first = heap[0]
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var best = parent
        if left < heap.count, heap[left].precedes(heap[best]) { best = left }
        if right < heap.count, heap[right].precedes(heap[best]) { best = right }
        guard best != parent else { break }
        heap.swapAt(parent, best)
        parent = best
      }
    }
    return (first.time, first.event)
  }
}

/// Messages on one direction of a simulated connection: in order, each with the time it
/// arrives.
struct MessageQueue {
  private var messages: [(arrives: Int64, frames: [Frame])] = []
  private var head = 0

  var count: Int { messages.count - head }
  var isEmpty: Bool { head == messages.count }

  /// The time the next message arrives, if any.
  var nextArrival: Int64? { isEmpty ? nil : messages[head].arrives }

  /// Queues `frames` to arrive after `delay`, but never before the message ahead of it.
  /// Returns when it arrives.
  mutating func send(_ frames: [Frame], now: Int64, delay: Int64) -> Int64 {
    let arrives = max(now + delay, messages.last.map(\.arrives) ?? now)
    messages.append((arrives, frames))
    return arrives
  }

  /// The next message, if it has arrived by `now`.
  mutating func receive(now: Int64) -> [Frame]? {
    guard head < messages.count, messages[head].arrives <= now else { return nil }
    let frames = messages[head].frames
    head += 1
    if head > 64, head * 2 > messages.count {
      messages.removeFirst(head)
      head = 0
    }
    return frames
  }

  /// Drops every message (a broken connection, a full queue).
  mutating func removeAll() {
    messages.removeAll()
    head = 0
  }

  /// Drops up to `count` messages from position `start` on (a full queue drops a run).
  mutating func drop(_ count: Int, from start: Int) -> Int {
    let from = head + min(start, self.count)
    let to = min(from + count, messages.count)
    messages.removeSubrange(from..<to)
    return to - from
  }
}
