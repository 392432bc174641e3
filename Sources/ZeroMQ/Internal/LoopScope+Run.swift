#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LoopScope {
  /// The loop: each turn runs the queued jobs, the handlers of readable sockets, the jobs those
  /// queued, and the due timers; when none of them has anything to do, it waits in `poll` on the
  /// wake-up pipe and the registered sockets' descriptors until the next timer is due. Repeats
  /// until shutdown, then closes every socket the loop owns.
  ///
  /// A socket's descriptor (`ZMQ_FD`) only says that the socket may have news, and any
  /// operation on the socket may consume that signal; `ZMQ_EVENTS` says whether a message
  /// waits. So after a turn that ran any work, every registered socket that was used since it
  /// was last found without input is asked for its events before the loop waits (one nothing
  /// touched, such as a monitor's, still signals on its descriptor); after a bare wake-up, only
  /// the sockets whose descriptor fired.
  func run() {
    core.enterLoopThread()
    var descriptors: [pollfd] = []
    var polled: [Registration] = []
    var askEvery = true
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
        descriptors = [pollfd(fd: core.wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
        descriptors += polled.map {
          pollfd(
            fd: (try? $0.socket.get(.fileDescriptor)) ?? -1, events: Int16(POLLIN), revents: 0)
        }
        registrationsChanged = false
        askEvery = true
      }

      var readable =
        askEvery
        ? polled.indices.filter { polled[$0].usedSinceAsked && polled[$0].hasInput() } : []
      var (jobs, stop) = takeQueuedJobs()
      if jobs.isEmpty, readable.isEmpty, !stop {
        let timeout = pollTimeout(now: clock.now)
        if timeout != 0 {
          wait(on: &descriptors, timeout: timeout)
          if descriptors[0].revents != 0 { (jobs, stop) = takeQueuedJobs(pipeReadable: true) }
          readable = polled.indices.filter {
            descriptors[$0 + 1].revents != 0 && polled[$0].hasInput()
          }
        }
      }

      for job in jobs { job(self) }
      stopping = stop
      for index in readable {
        let registration = polled[index]
        if registration.isActive && !registration.socket.isClosed {
          registration.handler(registration.socket)
        }
      }
      let followUpsRan = !stopping && runFollowUpJobs(stopping: &stopping)
      let timersRan = !timers.isEmpty && fireTimers(now: clock.now)
      askEvery = !jobs.isEmpty || !readable.isEmpty || followUpsRan || timersRan
      turns += 1
    }
    closeEverything()
  }

  /// Takes the queued jobs, then drains the wake-up pipe if a wake-up was written since the
  /// last take or `poll` found the pipe readable. Jobs queued on the loop thread write no byte,
  /// so taking them costs no system call.
  ///
  /// Only a take clears the record of a wake-up, and a take that finds one drains the pipe, so
  /// no byte outlives its record: a job queued between the take and the drain keeps the record
  /// set, and the next take (always before the loop waits) finds the job and drains again.
  private func takeQueuedJobs(pipeReadable: Bool = false) -> (jobs: [LoopCore.Job], stop: Bool) {
    let (jobs, stop, woken) = core.takeJobs()
    if woken || pipeReadable { core.wakePipe.drain() }
    return (jobs, stop)
  }

  /// Runs the jobs that this turn's jobs and handlers queued (a task resumed on the loop, the
  /// send it then asked for) in this turn, rather than one turn later after asking every socket
  /// for its events again; at most ``followUpRounds`` rounds, so that work which keeps queuing
  /// more cannot keep the sockets waiting. Returns whether any ran.
  private func runFollowUpJobs(stopping: inout Bool) -> Bool {
    var ran = false
    for _ in 0..<Self.followUpRounds {
      let (jobs, stop) = takeQueuedJobs()
      if jobs.isEmpty && !stop { break }
      for job in jobs { job(self) }
      ran = ran || !jobs.isEmpty
      stopping = stop
      if stop { break }
    }
    return ran
  }

  /// The most rounds of follow-up jobs in one turn.
  static var followUpRounds: Int { 16 }

  /// Waits in `poll` until a descriptor is readable or `timeout` milliseconds (`-1`: no limit)
  /// have passed; a signal ends the wait early.
  private func wait(on descriptors: inout [pollfd], timeout: Int) {
    for index in descriptors.indices { descriptors[index].revents = 0 }
    let result = descriptors.withUnsafeMutableBufferPointer { buffer in
      poll(buffer.baseAddress, nfds_t(buffer.count), Int32(clamping: timeout))
    }
    // Only a bug (a closed descriptor polled) can make poll fail with anything but EINTR.
    precondition(
      result >= 0 || errno == EINTR, "the I/O loop '\(core.name)' cannot poll: errno \(errno)")
  }

  /// Milliseconds until the next timer is due (rounded up), zero if one is late, `-1` if none.
  private func pollTimeout(now: ContinuousClock.Instant) -> Int {
    guard var next = timers.first?.deadline else { return -1 }
    for entry in timers where entry.deadline < next { next = entry.deadline }
    let remaining = now.duration(to: next)
    return remaining <= .zero ? 0 : Int(Socket.roundedUpMilliseconds(remaining))
  }

  /// Runs every timer whose deadline has passed, in deadline order; reschedules repeating
  /// ones one interval after their deadline (or after now, when that is already past). Returns
  /// whether any ran.
  private func fireTimers(now: ContinuousClock.Instant) -> Bool {
    // Most turns find no timer due: look before copying any.
    guard timers.contains(where: { $0.deadline <= now }) else { return false }
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
    return !due.isEmpty
  }

  private func closeEverything() {
    for registration in registrations {
      registration.isActive = false
      registration.socket.close()
    }
    registrations = []
    timers = []
    for owned in ownedSockets { owned.socket?.close() }
    ownedSockets = []
    core.finish()
  }
}
