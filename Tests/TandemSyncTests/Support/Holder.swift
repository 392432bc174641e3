import Synchronization

/// One strong reference that any thread can take away (and so release).
final class Holder<Object: AnyObject & Sendable>: Sendable {
  private let reference: Mutex<Object?>

  init(_ object: Object) {
    reference = Mutex(object)
  }

  /// The object, while it is held.
  var object: Object? { reference.withLock { $0 } }

  /// Takes the reference away: the caller's copy is the last one, unless others hold it too.
  func take() -> Object? {
    reference.withLock { $0.take() }
  }
}
