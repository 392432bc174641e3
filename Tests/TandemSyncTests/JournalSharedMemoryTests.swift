import Foundation
import Testing

@testable import TandemJournal

#if canImport(Glibc)
  import Glibc
#endif

/// Whether `chattr` can make files immutable here (root, on a file system with attributes).
private let canMakeFilesImmutable: Bool = {
  guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else {
    return false
  }
  let probe = NSTemporaryDirectory() + "/tandem-chattr-probe-\(getpid())"
  FileManager.default.createFile(atPath: probe, contents: Data())
  defer {
    _ = try? runChattr("-i", probe)
    try? FileManager.default.removeItem(atPath: probe)
  }
  return (try? runChattr("+i", probe)) == 0
}()

/// Runs `chattr flag path`; returns its exit status.
@discardableResult
private func runChattr(_ flag: String, _ path: String) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
  process.arguments = [flag, path]
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

@Suite("Journal: the shared-memory index")
struct JournalSharedMemoryTests {
  /// SQLite maps `<journal>-shm`; one it cannot write (immutable here) it would map read-only
  /// and read past its end, which is a SIGBUS. The journal refuses it first, saying why.
  @Test(.enabled(if: canMakeFilesImmutable))
  func anImmutableIndexIsRefusedWithoutACrash() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let journal = try makeJournal(in: directory, .init(durability: .full))
      try journal.append(journalDeltas(1...3))
      journal.close()
      let shm = path + "-shm"
      if !FileManager.default.fileExists(atPath: shm) {
        FileManager.default.createFile(atPath: shm, contents: Data())
      }
      try runChattr("+i", shm)
      defer { _ = try? runChattr("-i", shm) }
      for reading in [false, true] {
        #expect {
          if reading {
            _ = try Journal(readingAt: path).verify()
          } else {
            _ = try Journal(path: path, configuration: .init(durability: .full)).recover()
          }
        } throws: { error in
          guard let error = error as? JournalError, error.fileSystemFault == .permission else {
            return false
          }
          return "\(error)".contains("-shm")
        }
      }
      try runChattr("-i", shm)
      #expect(
        try Journal(path: path, configuration: .init(durability: .full)).recover().sequence == 3)
    }
  }

  /// Made immutable while the journal has it mapped, the index can no longer be written
  /// through the mapping: the write that finds it so is a SIGBUS (a crash inside SQLite, exit
  /// status 135, without the journal's guard). The journal turns it into a refusal of every
  /// later write, naming the index and saying the history is intact, and loses nothing it
  /// committed.
  @Test(.enabled(if: canMakeFilesImmutable))
  func anIndexMadeImmutableWhileMappedStopsWritesWithoutACrash() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/leader.journal"
      let shm = path + "-shm"
      defer { _ = try? runChattr("-i", shm) }
      do {
        let journal = try makeJournal(in: directory, .init(durability: .full))
        try journal.append(journalDeltas(1...3))
        try runChattr("+i", shm)
        // Writes the index's pages back, which makes the next write through the mapping
        // fault (the kernel asks the file system again, and it refuses an immutable file).
        let descriptor = open(shm, O_RDONLY)
        #expect(descriptor >= 0 && fsync(descriptor) == 0)
        close(descriptor)
        // The commit whose index update faults completes: its frames are in the log.
        try journal.append(journalDeltas(4...6))
        #expect {
          try journal.append(journalDeltas(7...9))
        } throws: { error in
          guard let error = error as? JournalError, error.fileSystemFault == .permission else {
            return false
          }
          let text = "\(error)"
          return text.contains(shm) && text.contains("intact")
        }
        #expect(journal.lastSequence == 6)
        journal.close()
      }
      try runChattr("-i", shm)
      let reopened = try Journal(path: path, configuration: .init(durability: .full))
      #expect(try reopened.recover().sequence == 6)
      #expect(try Journal(readingAt: path).verify().isSound)
    }
  }
}
