#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The error number of the file system when it refuses to read the first page of the file at
/// `path` (`EIO` on a failing or shut-down disk), or nil when it reads it (or the file is gone,
/// which the caller's own error reports).
package func fileSystemError(readingAt path: String) -> Int32? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else {
    let error = errno
    return error == ENOENT ? nil : error
  }
  defer { close(descriptor) }
  var page = [UInt8](repeating: 0, count: 4096)
  let count = page.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
  return count < 0 ? errno : nil
}
