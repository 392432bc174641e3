#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes `message` and a newline to standard error (nothing is left to say it when that fails).
public func printError(_ message: String) {
  try? writeLine(message, to: STDERR_FILENO)
}

/// Writes `text` and a newline to standard output (or `descriptor`) at once, without buffering,
/// so that a pipe sees every line as soon as it is written.
///
/// - Throws: a failure with status ``ExitStatus/ioError`` when the line cannot be written
///   whole (a full disk, a closed descriptor), so that a command whose output is lost does not
///   end as if it had succeeded.
public func writeLine(
  _ text: String, to descriptor: Int32 = STDOUT_FILENO
) throws(CommandFailure) {
  let line = text + "\n"
  let error: Int32? = line.utf8CString.withUnsafeBufferPointer { bytes in
    var offset = 0
    let count = bytes.count - 1
    while offset < count {
      let written = write(descriptor, bytes.baseAddress! + offset, count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }
  if let error {
    let target = descriptor == STDOUT_FILENO ? "standard output" : "descriptor \(descriptor)"
    throw CommandFailure(
      .ioError, "cannot write to \(target): \(String(cString: strerror(error)))")
  }
}
