#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The copy of a damaged journal that salvage reads: the file and its write-ahead log copied
/// byte for byte beside the new journal, the file padded with zeros to the whole pages its
/// header counts (SQLite refuses a file cut inside its pages at the first read, though the
/// pages before the cut are intact; padded, the missing pages read as damage where they are
/// needed). The damaged journal itself is only read, never opened by SQLite.
struct SalvageCopy {
  /// The copy's path (its log at `path-wal`).
  let path: String

  /// Copies the journal at `source` (and its `-wal`, if any) to `path`.
  init(of source: String, at path: String) throws(JournalError) {
    self.path = path
    do throws(JournalError) {
      try Self.copy(source, to: path)
      if access(source + "-wal", F_OK) == 0 { try Self.copy(source + "-wal", to: path + "-wal") }
      try Self.padToWholePages(path)
    } catch {
      remove()
      throw error
    }
  }

  /// Removes the copy, its log and the index SQLite made for it.
  func remove() {
    for suffix in ["", "-wal", "-shm", "-lock", "-mark"] { _ = unlink(path + suffix) }
  }

  /// Copies `source` to a new file at `destination` (never over an existing one).
  private static func copy(_ source: String, to destination: String) throws(JournalError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .system(path: source, call: "open", errno: errno) }
    defer { close(input) }
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw .system(path: destination, call: "open", errno: errno) }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .system(path: source, call: "read", errno: errno) }
      if count == 0 { return }
      var written = 0
      while written < count {
        let step = buffer.withUnsafeBytes {
          write(output, $0.baseAddress! + written, count - written)
        }
        if step < 0, errno == EINTR { continue }
        guard step > 0 else { throw .system(path: destination, call: "write", errno: errno) }
        written += step
      }
    }
  }

  /// Extends the file at `path` with zeros to the larger of its header's page count and its
  /// own size rounded up to whole pages (an unreadable header leaves it as it is).
  private static func padToWholePages(_ path: String) throws(JournalError) {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(path: path, call: "open", errno: errno) }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
    guard count == 100 else { return }
    let raw = Int(header[16]) << 8 | Int(header[17])
    let pageSize = raw == 1 ? 65536 : raw
    guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return }
    let pages = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
    let size = fileSize(path)
    let whole = max(pages * pageSize, (size + pageSize - 1) / pageSize * pageSize)
    guard whole > size else { return }
    guard ftruncate(descriptor, off_t(whole)) == 0 else {
      throw .system(path: path, call: "ftruncate", errno: errno)
    }
  }
}
