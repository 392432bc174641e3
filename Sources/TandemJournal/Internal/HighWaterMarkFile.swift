#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The side file `<journal>-mark` that holds the journal's ``HighWaterMark``: the only owner of
/// its descriptor. Every write replaces the whole record in place, at offset 0.
package final class HighWaterMarkFile {
  private let descriptor: Int32
  /// The mark file's path.
  package let path: String

  /// The mark file's path for the journal at `journalPath`.
  package static func path(forJournal journalPath: String) -> String {
    journalPath + "-mark"
  }

  /// Opens (or creates) the mark file of the journal at `journalPath` for writing.
  package init(journalPath: String) throws(JournalError) {
    path = Self.path(forJournal: journalPath)
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let error = errno
      throw .system(path: path, call: "open", errno: error)
    }
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// What the file holds: nil when it is empty (a new file), `.damaged` when it is not one
  /// whole record.
  package func read() throws(JournalError) -> HighWaterMarkFile.Content {
    try Self.read(descriptor: descriptor, path: path)
  }

  /// Reads the mark of the journal at `journalPath` without opening it for writing (for
  /// `verify`); nil when there is no mark file.
  package static func read(journalPath: String) throws(JournalError) -> Content? {
    let path = path(forJournal: journalPath)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let error = errno
      if error == ENOENT { return nil }
      throw .system(path: path, call: "open", errno: error)
    }
    defer { close(descriptor) }
    return try read(descriptor: descriptor, path: path)
  }

  private static func read(descriptor: Int32, path: String) throws(JournalError) -> Content {
    var buffer = [UInt8](repeating: 0, count: HighWaterMark.size + 1)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { throw .system(path: path, call: "pread", errno: errno) }
    if count == 0 { return .empty }
    guard let mark = HighWaterMark(bytes: Array(buffer[..<count])) else { return .damaged }
    return .mark(mark)
  }

  /// Replaces the record with `mark`, and with `sync` waits until it is on the disk
  /// (`fdatasync`).
  package func write(_ mark: HighWaterMark, sync: Bool) throws(JournalError) {
    let bytes = mark.bytes
    let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    guard written == bytes.count else {
      throw .system(path: path, call: "pwrite", errno: written < 0 ? errno : EIO)
    }
    guard sync else { return }
    #if canImport(Darwin)
      let synced = fcntl(descriptor, F_FULLFSYNC)
    #else
      let synced = fdatasync(descriptor)
    #endif
    guard synced == 0 else { throw .system(path: path, call: "fdatasync", errno: errno) }
  }

  /// What a mark file holds.
  package enum Content: Sendable, Equatable {
    /// Nothing: a file just created.
    case empty
    /// Bytes that are not one whole record.
    case damaged
    /// A record.
    case mark(HighWaterMark)
  }
}
