#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: its name and `errno`.
struct SystemCallError: Error, Sendable, Equatable {
  let call: String
  let errno: Int32
}

/// The text of `errno`, from `strerror`.
func systemErrorText(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  return String(cString: text)
}

/// Calls `body` until it does not fail with `EINTR`; throws the call's name and `errno` on
/// another failure.
private func retryingOnInterrupt<Result: BinaryInteger>(
  _ call: String, _ body: () -> Result
) throws(SystemCallError) -> Result {
  while true {
    let result = body()
    if result >= 0 { return result }
    let code = errno
    if code != EINTR { throw SystemCallError(call: call, errno: code) }
  }
}

#if canImport(Darwin)
  private let systemWrite = Darwin.write
  private let systemRead = Darwin.read
  private let systemClose = Darwin.close
#elseif canImport(Musl)
  private let systemWrite = Musl.write
  private let systemRead = Musl.read
  private let systemClose = Musl.close
#else
  private let systemWrite = Glibc.write
  private let systemRead = Glibc.read
  private let systemClose = Glibc.close
#endif

/// A file descriptor with one owner, closed by ``close()`` or when released.
final class POSIXFile: @unchecked Sendable {
  /// The descriptor; -1 once closed. Callers serialize access (``ActionRecorder`` holds its
  /// mutex around every use).
  private var descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    close()
  }

  /// Opens `path` for appending, creating it (mode 0644) when missing.
  static func openForAppending(_ path: String) throws(SystemCallError) -> POSIXFile {
    let flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC
    let descriptor = try retryingOnInterrupt("open") { open(path, flags, 0o644) }
    return POSIXFile(descriptor: descriptor)
  }

  /// Writes all of `bytes` (one `write` call unless the kernel takes fewer bytes).
  ///
  /// When a `write` fails after part of `bytes` was written, the file is cut back to where
  /// `bytes` began, so it gains all of them or none (as long as nothing else appends to it).
  func write(_ bytes: [UInt8]) throws(SystemCallError) {
    precondition(descriptor >= 0, "Tandem: write to a closed file")
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if offset > 0 { removeLast(offset) }
        throw SystemCallError(call: "write", errno: code)
      }
      offset += written
    }
  }

  /// Cuts the last `count` bytes written off the end of the file. Best effort: it runs while a
  /// failed write is being reported, and that failure is the one to report.
  private func removeLast(_ count: Int) {
    // With O_APPEND the offset is just past the bytes written last.
    guard let end = try? retryingOnInterrupt("lseek", { lseek(descriptor, 0, SEEK_CUR) }),
      end >= count
    else { return }
    _ = try? retryingOnInterrupt("ftruncate") { ftruncate(descriptor, end - off_t(count)) }
  }

  /// Closes the descriptor; later calls do nothing.
  func close() {
    guard descriptor >= 0 else { return }
    _ = systemClose(descriptor)
    descriptor = -1
  }

  /// The whole contents of the file at `path`.
  static func readAll(_ path: String) throws(SystemCallError) -> [UInt8] {
    let descriptor = try retryingOnInterrupt("open") { open(path, O_RDONLY | O_CLOEXEC) }
    let file = POSIXFile(descriptor: descriptor)
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in
        systemRead(file.descriptor, buffer.baseAddress!, buffer.count)
      }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        throw SystemCallError(call: "read", errno: code)
      }
      if count == 0 { break }
      contents.append(contentsOf: chunk[0..<count])
    }
    file.close()
    return contents
  }
}
