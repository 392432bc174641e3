#if canImport(Glibc)
  import Glibc
  private let systemRead = Glibc.read
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  import Darwin
  private let systemRead = Darwin.read
  private let systemWrite = Darwin.write
#endif

/// The few file-system calls the key files need: read a small text file with its mode, write
/// one with a mode, list a directory, remove a file.
enum KeyFileSystem {
  /// The largest key file read (a key file is a few hundred bytes).
  static let maximumBytes = 64 << 10

  /// The text of the file at `path` and its permission bits.
  static func read(_ path: String) throws(KeyStoreError) -> (text: String, mode: UInt32) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotRead(path: path, reason: errorText()) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .cannotRead(path: path, reason: errorText())
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .cannotRead(path: path, reason: errorText()) }
      if count == 0 { break }
      bytes += buffer[..<count]
      guard bytes.count <= maximumBytes else {
        throw .cannotRead(
          path: path, reason: "it is larger than a key file (\(maximumBytes) bytes)")
      }
    }
    return (String(decoding: bytes, as: UTF8.self), UInt32(status.st_mode) & 0o7777)
  }

  /// Writes `text` to a new file at `path` with permission bits `mode` (set before any byte is
  /// written); refuses to replace an existing file unless `replacing`.
  static func write(
    _ text: String, to path: String, mode: UInt32, replacing: Bool = false
  ) throws(KeyStoreError) {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL)
    let descriptor = open(path, flags, mode_t(mode))
    guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errorText()) }
    defer { close(descriptor) }
    guard fchmod(descriptor, mode_t(mode)) == 0 else {
      throw .cannotWrite(path: path, reason: errorText())
    }
    var remaining = Array(text.utf8)[...]
    while !remaining.isEmpty {
      let count = remaining.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw .cannotWrite(path: path, reason: errorText()) }
      remaining = remaining.dropFirst(count)
    }
    guard fsync(descriptor) == 0 else { throw .cannotWrite(path: path, reason: errorText()) }
  }

  /// The names of the entries of the directory at `path` (without `.` and `..`), sorted.
  static func list(_ path: String) throws(KeyStoreError) -> [String] {
    guard let directory = opendir(path) else {
      throw .cannotRead(path: path, reason: errorText())
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Whether a file or directory exists at `path`.
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  /// Makes the directory at `path` (mode 0755) unless it exists.
  static func makeDirectory(_ path: String) throws(KeyStoreError) {
    if exists(path) { return }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw .cannotWrite(path: path, reason: errorText())
    }
  }

  /// Moves the file at `path` to `destination` (`rename`).
  static func move(_ path: String, to destination: String) throws(KeyStoreError) {
    guard rename(path, destination) == 0 else {
      throw .cannotWrite(path: path, reason: errorText())
    }
  }

  private static func errorText() -> String {
    String(cString: strerror(errno))
  }
}
