/// A value that lives on one ``IOLoop``'s thread, carried through other threads as an opaque,
/// `Sendable` token.
///
/// Sockets and protocol state are not `Sendable`, yet closures queued on the loop need them.
/// Wrap such a value in a `LoopBound` on the loop thread, capture the token anywhere, and read
/// ``value`` again inside a later closure on the same loop. Reading it on any other thread is a
/// programmer error and traps.
///
/// ```swift
/// let publisher = try await loop.submit { scope in
///   let socket = try scope.makeSocket(.pub)
///   try socket.bind(.tcp(host: "127.0.0.1"))
///   return LoopBound(socket, scope: scope)
/// }
/// loop.execute { _ in _ = try? publisher.value.send("tick") }
/// ```
public struct LoopBound<Value>: @unchecked Sendable {
  // The box is only dereferenced on the loop thread (checked), so sharing the token is safe.
  private let box: Box
  private let core: LoopCore

  /// Binds `value` to the loop that `scope` belongs to; call on that loop's thread.
  public init(_ value: Value, scope: LoopScope) {
    precondition(scope.core.isLoopThread, "LoopBound created off its loop thread")
    box = Box(value)
    core = scope.core
  }

  /// The value; get and set only on the loop thread.
  public var value: Value {
    get {
      precondition(core.isLoopThread, "LoopBound value read off its loop thread")
      return box.value
    }
    nonmutating set {
      precondition(core.isLoopThread, "LoopBound value written off its loop thread")
      box.value = newValue
    }
  }

  private final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }
}
