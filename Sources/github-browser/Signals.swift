#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals that end a subcommand cleanly.
private func terminationSignals() -> sigset_t {
  var signals = sigset_t()
  sigemptyset(&signals)
  sigaddset(&signals, SIGINT)
  sigaddset(&signals, SIGTERM)
  return signals
}

/// Blocks SIGINT and SIGTERM in the calling thread and every thread it starts later; also
/// ignores SIGPIPE (a client that goes away must not end the process).
func blockTerminationSignals() {
  var signals = terminationSignals()
  pthread_sigmask(SIG_BLOCK, &signals, nil)
  signal(SIGPIPE, SIG_IGN)
}

/// Waits until SIGINT or SIGTERM arrives; returns its number.
func waitForTermination() -> Int32 {
  var signals = terminationSignals()
  var received: Int32 = 0
  while sigwait(&signals, &received) != 0 {}
  return received
}

/// Flushes every output stream (standard output included), so a parent reading the printed URL through a pipe sees it now.
func flushStandardOutput() {
  fflush(nil)
}
