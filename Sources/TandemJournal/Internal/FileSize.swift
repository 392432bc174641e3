#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The size in bytes of the file at `path`, or 0 when it does not exist.
package func fileSize(_ path: String) -> Int {
  var status = stat()
  guard stat(path, &status) == 0 else { return 0 }
  return Int(status.st_size)
}
