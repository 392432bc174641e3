#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one-leader-per-journal lock: an exclusive `flock` on the side file `<journal>-lock`,
/// held for as long as this value lives, with the holder's process id written in it.
///
/// `flock` locks belong to an open file description, so a second opener is refused whether it
/// is another process or another ``Journal`` in the same one. The kernel drops the lock when
/// the process dies, `kill -9` included, so a crashed leader never leaves a stale lock. The
/// lock file stays on disk; deleting it while a leader runs would let a second one in.
package final class JournalLock {
  private let descriptor: Int32
  /// The lock file's path.
  package let path: String

  /// Takes the lock for the journal at `journalPath`, or throws ``JournalError/locked(path:holder:)``.
  package init(journalPath: String) throws(JournalError) {
    path = journalPath + "-lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .system(path: path, call: "open", errno: errno)
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let error = errno
      let holder = Self.readHolder(descriptor)
      close(descriptor)
      if error == EWOULDBLOCK {
        throw .locked(path: journalPath, holder: holder)
      }
      throw .system(path: path, call: "flock", errno: error)
    }
    self.descriptor = descriptor
    let pid = Array("\(getpid())\n".utf8)
    if ftruncate(descriptor, 0) == 0 {
      _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
  }

  deinit {
    // Unlock before closing: a child process forked by another thread holds a copy of the
    // descriptor until it execs, and closing ours alone would leave the lock held through it.
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// The process id the holder wrote, if readable.
  private static func readHolder(_ descriptor: Int32) -> String? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[..<count], as: UTF8.self)
    let trimmed = text.filter { !$0.isWhitespace }
    return trimmed.isEmpty ? nil : trimmed
  }
}
