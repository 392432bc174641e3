import CZeroMQ

extension LoopScope {
  /// The loop: poll the wake-up pipe and the registered sockets until the next timer is due,
  /// run the queued jobs, the handlers of readable sockets and the due timers; repeat until
  /// shutdown, then close every socket the loop owns.
  func run(wakeReceiver: Socket) {
    core.enterLoopThread()
    var items: [zmq_pollitem_t] = []
    var polled: [Registration] = []
    var stopping = false
    let clock = ContinuousClock()
    while !stopping {
      registrations.removeAll { registration in
        guard registration.socket.isClosed else { return false }
        registrationsChanged = true
        return true
      }
      if registrationsChanged {
        polled = registrations
        items = [
          zmq_pollitem_t(socket: wakeReceiver.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
        ]
        for registration in polled {
          items.append(
            zmq_pollitem_t(
              socket: registration.socket.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0))
        }
        registrationsChanged = false
      }
      let timeout = pollTimeout(now: clock.now)
      let count = Int32(items.count)
      do {
        _ = try items.withUnsafeMutableBufferPointer { buffer throws(ZMQError) in
          try zmqCall("zmq_poll") { zmq_poll(buffer.baseAddress, count, timeout) }
        }
      } catch {
        // Only a bug (a closed socket polled) or a terminated context can get here.
        preconditionFailure("the I/O loop '\(core.name)' cannot poll: \(error)")
      }

      if items[0].revents & Int16(ZMQ_POLLIN) != 0 {
        while zmq_recv(wakeReceiver.handle, nil, 0, ZMQ_DONTWAIT) >= 0 {}
        let (jobs, stop) = core.takeJobs()
        for job in jobs { job(self) }
        stopping = stop
      }
      for index in polled.indices where items[index + 1].revents & Int16(ZMQ_POLLIN) != 0 {
        let registration = polled[index]
        if registration.isActive && !registration.socket.isClosed {
          registration.handler(registration.socket)
        }
      }
      if !timers.isEmpty { fireTimers(now: clock.now) }
    }
    closeEverything(wakeReceiver: wakeReceiver)
  }

  /// Milliseconds until the next timer is due (rounded up), zero if one is late, `-1` if none.
  private func pollTimeout(now: ContinuousClock.Instant) -> Int {
    guard let next = timers.lazy.map(\.deadline).min() else { return -1 }
    let remaining = now.duration(to: next)
    return remaining <= .zero ? 0 : Int(Socket.roundedUpMilliseconds(remaining))
  }

  /// Runs every timer whose deadline has passed, in deadline order; reschedules repeating
  /// ones one interval after their deadline (or after now, when that is already past).
  private func fireTimers(now: ContinuousClock.Instant) {
    let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
    for entry in due {
      // An earlier timer's body may have cancelled this one.
      guard let index = timers.firstIndex(where: { $0.timer == entry.timer }) else { continue }
      if let interval = entry.interval {
        var next = entry.deadline.advanced(by: interval)
        if next <= now { next = now.advanced(by: interval) }
        timers[index].deadline = next
      } else {
        timers.remove(at: index)
      }
      entry.body()
    }
  }

  private func closeEverything(wakeReceiver: Socket) {
    for registration in registrations {
      registration.isActive = false
      registration.socket.close()
    }
    registrations = []
    timers = []
    for owned in ownedSockets { owned.socket?.close() }
    ownedSockets = []
    wakeReceiver.close()
    core.finish()
  }
}
