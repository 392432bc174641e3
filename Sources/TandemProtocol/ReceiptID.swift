/// Names one queued action's receipt in the follower's protocol core, which settles receipts by
/// id: the follower's I/O shell maps ids to its `Receipt` objects, which the core never holds.
package struct ReceiptID: Hashable, Sendable, CustomStringConvertible {
  /// The id's value: 1, 2, 3... in the order the actions were queued.
  package let rawValue: UInt64

  package init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  package var description: String { "receipt \(rawValue)" }
}
