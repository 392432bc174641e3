/// A store's subscriptions in the order they subscribed, with subscribe and unsubscribe in
/// O(1) amortized time.
///
/// The boxes sit in an array of slots, in subscription order; an index by subscriber identity
/// finds a subscriber's slot. Removing a subscription empties its slot instead of shifting the
/// ones after it, and the array is compacted once the empty slots outnumber the live ones, so
/// each removal pays for the share of a compaction it causes. (ReSwift keeps a `Set`, which is
/// O(1) too but notifies in no particular order; an array scanned on every subscribe, as this
/// store had, is O(n).)
///
/// A value: the draining thread notifies a copy taken under the lock, while other threads may
/// subscribe and unsubscribe; the copy shares the storage until one of them changes it.
struct SubscriptionList: Sendable {
  /// The boxes in subscription order; `nil` where a subscription was removed.
  private(set) var slots: [SubscriptionBox?] = []
  /// The slot of each subscriber's current box.
  private var slotByID: [ObjectIdentifier: Int] = [:]
  /// How many slots compactions have visited, over the list's life: with ``operations``, what
  /// tests check the amortized cost with, without timing anything.
  private(set) var compactedSlots = 0
  /// How many appends and removals the list has had.
  private(set) var operations = 0

  /// Whether there is no subscription.
  var isEmpty: Bool { slotByID.isEmpty }

  /// The number of subscriptions.
  var count: Int { slotByID.count }

  /// Adds `box` after all others, ending and removing the same subscriber's earlier box.
  mutating func append(_ box: SubscriptionBox) {
    if let earlier = remove(id: box.id) {
      earlier.cancel()
    }
    slotByID[box.id] = slots.count
    slots.append(box)
    operations &+= 1
  }

  /// Removes the box of the subscriber with identity `id` and returns it, if there is one.
  @discardableResult mutating func remove(id: ObjectIdentifier) -> SubscriptionBox? {
    guard let slot = slotByID.removeValue(forKey: id) else { return nil }
    let box = slots[slot]
    slots[slot] = nil
    operations &+= 1
    compactIfSparse()
    return box
  }

  /// Removes the boxes whose subscriber was released.
  mutating func removeReleased() {
    for slot in slots.indices {
      guard let box = slots[slot], box.isReleased else { continue }
      slots[slot] = nil
      // A new object at the address of a released one has the same identity: keep its entry.
      if slotByID[box.id] == slot {
        slotByID[box.id] = nil
      }
    }
    compactIfSparse()
  }

  /// Drops the empty slots once they outnumber the live ones (and there are more than a few).
  private mutating func compactIfSparse() {
    let empty = slots.count - slotByID.count
    guard empty > 16, empty > slotByID.count else { return }
    var compacted: [SubscriptionBox?] = []
    compacted.reserveCapacity(slotByID.count * 2)
    for (slot, box) in slots.enumerated() {
      guard let box, slotByID[box.id] == slot else { continue }
      slotByID[box.id] = compacted.count
      compacted.append(box)
    }
    compactedSlots &+= slots.count
    slots = compacted
  }
}
