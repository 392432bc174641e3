/// The faults of a standby run.
extension FailoverSimulation {
  func injectFault() {
    let kinds = configuration.faults.sorted()
    guard !kinds.isEmpty else { return }
    let kind = random.pick(kinds)
    let lease = Int(configuration.leaseMilliseconds)
    let alive = nodes.filter { $0.alive && !$0.paused }
    guard !alive.isEmpty else { return }
    let serving = alive.first { $0.serving }
    switch kind {
    case .kill:
      // Mostly the active leader; now and then a standby.
      let node = serving.flatMap { random.chance(0.8) ? $0 : nil } ?? random.pick(alive)
      if node.serving { down = (now, node.leaderID) }
      node.kill()
      deferred[node.id] = nil
      schedule(.restart(node.id), after: Int64(random.int(50...500)))
    case .pause:
      let node = serving.flatMap { random.chance(0.8) ? $0 : nil } ?? random.pick(alive)
      let duration = Int64(random.int(100...(3 * lease)))
      node.paused = true
      trace("fault: \(node.leaderID) pauses for \(duration) ms")
      schedule(.resume(node.id), after: duration)
    case .cutOff:
      let node = serving.flatMap { random.chance(0.8) ? $0 : nil } ?? random.pick(alive)
      guard !isCutOff(node.id) else { return }
      let duration = Int64(random.int(100...(3 * lease)))
      cutOffUntil[node.id] = now + duration
      trace("fault: \(node.leaderID) is cut off from the arbiter for \(duration) ms")
      schedule(.heal(node.id), after: duration)
    case .handOver:
      guard let serving else { return }
      trace("fault: \(serving.leaderID) is asked to hand over")
      serving.perform(serving.leadership.stepDown(now: serving.instant))
    case .messageLoss:
      lossesDue += random.int(1...4)
    }
    report.count("fault: \(kind.rawValue)")
  }

  func resume(_ id: Int) {
    let node = nodes[id]
    guard node.paused else { return }
    node.paused = false
    trace("\(node.leaderID) resumes")
    let waiting = deferred.removeValue(forKey: id) ?? []
    for event in waiting { schedule(event, after: 0) }
  }

  func heal(_ id: Int) {
    guard cutOffUntil.removeValue(forKey: id) != nil else { return }
    trace("\(nodes[id].leaderID) reaches the arbiter again")
    for stalled in stalled.removeValue(forKey: id) ?? [] {
      report.count("requests delivered late")
      schedule(
        .arbiterArrive(id, stalled.run, stalled.request, stalled.call),
        after: Int64(random.int(1...Int(configuration.arbiterDelayMilliseconds))))
    }
  }
}
