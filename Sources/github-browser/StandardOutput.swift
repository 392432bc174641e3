#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Flushes every output stream (standard output included), so a parent reading the printed URL
/// through a pipe sees it now.
func flushStandardOutput() {
  fflush(nil)
}
