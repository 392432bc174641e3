#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An id of the machine's current boot, to tell a process restart from a machine restart:
/// Linux's `/proc/sys/kernel/random/boot_id`, or the boot time (`kern.boottime`) on Darwin.
/// Nil when neither is readable.
package func currentBootIdentity() -> String? {
  #if os(Linux)
    let descriptor = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[..<count], as: UTF8.self).filter { !$0.isWhitespace }
    return text.isEmpty ? nil : text
  #elseif canImport(Darwin)
    var time = timeval()
    var size = MemoryLayout<timeval>.size
    guard sysctlbyname("kern.boottime", &time, &size, nil, 0) == 0 else { return nil }
    return "\(time.tv_sec).\(time.tv_usec)"
  #else
    return nil
  #endif
}
