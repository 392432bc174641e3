#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
  let line = message + "\n"
  _ = line.utf8CString.withUnsafeBufferPointer { bytes in
    write(STDERR_FILENO, bytes.baseAddress, bytes.count - 1)
  }
}
