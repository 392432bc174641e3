/// A leader's history id: a random 64-bit number minted whenever history may have been lost.
///
/// Sequences are comparable only within one epoch; a follower that sees a new epoch throws
/// away what it has and takes a fresh snapshot.
public struct Epoch: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64

  public init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  /// A new random epoch (never zero, which the protocol reserves for "none").
  public static func random() -> Epoch {
    var generator = SystemRandomNumberGenerator()
    return Epoch(rawValue: UInt64.random(in: 1...UInt64.max, using: &generator))
  }

  /// The epoch as 16 hexadecimal digits.
  public var description: String {
    let digits = String(rawValue, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
