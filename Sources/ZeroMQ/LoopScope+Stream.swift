extension LoopScope {
  /// Registers `socket` and delivers each multipart message it receives, as the bytes of its
  /// frames, to an `AsyncStream` that any task can consume.
  ///
  /// The handler drains the socket with non-blocking reads on every turn it is readable.
  /// When the consumer stops iterating (or the stream is dropped) the socket is unregistered;
  /// it stays open and owned by the loop. A receive error finishes the stream.
  ///
  /// ```swift
  /// let updates = try await loop.submit { scope in
  ///   let subscriber = try scope.makeSocket(.sub)
  ///   try subscriber.subscribe(to: "")
  ///   try subscriber.connect(endpoint)
  ///   return scope.messages(from: subscriber)
  /// }
  /// for await frames in updates { ... }
  /// ```
  public func messages(
    from socket: Socket,
    bufferingPolicy: AsyncStream<[[UInt8]]>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<[[UInt8]]> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: [[UInt8]].self, bufferingPolicy: bufferingPolicy)
    register(socket) { socket in
      do {
        while let frames = try socket.receiveParts(wait: .nonBlocking) {
          continuation.yield(frames)
        }
      } catch {
        continuation.finish()
      }
    }
    let bound = LoopBound(socket, scope: self)
    let core = self.core
    continuation.onTermination = { _ in
      _ = core.enqueue { scope in scope.unregister(bound.value) }
    }
    return stream
  }
}
