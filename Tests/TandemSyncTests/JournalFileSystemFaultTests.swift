import Foundation
import Testing

@testable import TandemJournal

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Journal: failures of the disk are not damage")
struct JournalFileSystemFaultTests {
  @Test(arguments: [
    (EIO, FileSystemFault.ioError), (ENOSPC, .full), (EDQUOT, .full), (EROFS, .readOnly),
    (EACCES, .permission), (EPERM, .permission), (ENOENT, .vanished),
  ])
  func errorNumbersNameTheirFault(_ number: Int32, _ fault: FileSystemFault) {
    #expect(FileSystemFault(errno: number) == fault)
  }

  @Test func anErrorNumberOfAnotherKindIsNoFaultOfTheDisk() {
    #expect(FileSystemFault(errno: EINVAL) == nil)
    #expect(FileSystemFault(SQLiteError(code: 19, message: "constraint", call: "x")) == nil)
  }

  @Test func sqliteFailuresNameTheirFaultByErrnoFirst() {
    let write = SQLiteError(code: 10 | (3 << 8), message: "disk I/O error", call: "w")
    #expect(FileSystemFault(write) == .ioError)
    var full = write
    full.systemErrno = ENOSPC
    #expect(FileSystemFault(full) == .full)
    #expect(FileSystemFault(SQLiteError(code: 13, message: "full", call: "x")) == .full)
    #expect(FileSystemFault(SQLiteError(code: 8, message: "readonly", call: "x")) == .readOnly)
    #expect(
      FileSystemFault(SQLiteError(code: 8 | (4 << 8), message: "moved", call: "x")) == .vanished)
  }

  /// Every message says what to fix and that the journal may be intact; none advises
  /// discarding it.
  @Test(arguments: FileSystemFault.allCases)
  func theAdviceNeverDiscardsHistory(_ fault: FileSystemFault) {
    let advice = fault.advice.lowercased()
    #expect(!advice.contains("move it aside") && !advice.contains("discard"))
    #expect(!advice.contains("corrupt"))
    #expect(!advice.contains("delete"))
  }

  @Test func anIOErrorIsReportedAsOneWithItsAdvice() {
    var failure = SQLiteError(code: 10 | (3 << 8), message: "disk I/O error", call: "COMMIT")
    failure.systemErrno = EIO
    let error = JournalError.sqlite(path: "/data/leader.journal", failure)
    #expect(error.fileSystemFault == .ioError)
    #expect(
      "\(error)".hasPrefix(
        "journal /data/leader.journal: the file system reports I/O errors: the journal may be "
          + "intact; fix the disk, then restart the leader"))
  }

  /// A corruption SQLite reports on a file the disk reads back is damage; the check reads the
  /// file and finds no fault of the disk.
  @Test func aCorruptionOnAReadableFileStaysDamage() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/file"
      FileManager.default.createFile(atPath: path, contents: Data(repeating: 1, count: 8192))
      let malformed = SQLiteError(code: 11, message: "database disk image is malformed", call: "x")
      guard case .corrupt = JournalError(path: path, malformed) else {
        Issue.record("expected .corrupt")
        return
      }
      // A directory reads back EISDIR, which is no fault of the disk either.
      guard case .corrupt = JournalError(path: directory, malformed) else {
        Issue.record("expected .corrupt")
        return
      }
    }
  }
}
