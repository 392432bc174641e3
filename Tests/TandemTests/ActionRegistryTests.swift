import Testing

@testable import Tandem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private struct AddBookmark: Action, Codable, Equatable {
  var url: String
  var tags: [String] = []
}

private struct RemoveBookmark: Action, Codable, Equatable {
  var url: String
}

private struct RenameBookmark: Action, Codable, Equatable {
  var url: String
  var title: String?
}

private struct NotRegistered: Action, Codable {}

private func bookmarkRegistry() -> ActionRegistry {
  var registry = ActionRegistry()
  registry.register(AddBookmark.self, tag: "bookmark.add")
  registry.register(RemoveBookmark.self, tag: "bookmark.remove")
  return registry
}

@Suite("ActionRegistry")
struct ActionRegistryTests {
  @Test("an encoded action decodes to an equal action of the same type")
  func roundTrip() throws {
    let registry = bookmarkRegistry()
    let original = AddBookmark(url: "https://swift.org", tags: ["lang"])
    let (tag, payload) = try registry.encode(original)
    #expect(tag == "bookmark.add")
    #expect(
      String(decoding: payload, as: UTF8.self) == #"{"tags":["lang"],"url":"https://swift.org"}"#)
    let decoded = try registry.decode(tag: tag, payload: payload)
    #expect(decoded as? AddBookmark == original)
  }

  @Test("an unknown tag throws unknownTag naming it")
  func unknownTag() {
    #expect(throws: ActionRegistryError.unknownTag("bookmark.move")) {
      try bookmarkRegistry().decode(tag: "bookmark.move", payload: Array("{}".utf8))
    }
  }

  @Test("a payload missing a key throws undecodable naming the tag and the key")
  func missingKey() {
    do {
      _ = try bookmarkRegistry().decode(tag: "bookmark.remove", payload: Array("{}".utf8))
      Issue.record("decoding succeeded")
    } catch {
      guard case .undecodable(let tag, let reason) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(tag == "bookmark.remove")
      #expect(reason.contains("missing key \"url\""))
    }
  }

  @Test("a payload with a wrong type throws undecodable naming the coding path")
  func wrongType() {
    let payload = Array(#"{"url":"u","tags":["a",7]}"#.utf8)
    #expect {
      try bookmarkRegistry().decode(tag: "bookmark.add", payload: payload)
    } throws: { error in
      guard let error = error as? ActionRegistryError,
        case .undecodable(let tag, let reason) = error
      else { return false }
      return tag == "bookmark.add" && reason.contains("$.tags[1]")
    }
  }

  @Test("bytes that are not JSON throw undecodable, not a crash")
  func notJSON() {
    for payload in [[UInt8](), Array("{\"url\":".utf8), [0xff, 0xfe, 0x00]] {
      #expect {
        try bookmarkRegistry().decode(tag: "bookmark.add", payload: payload)
      } throws: { error in
        guard let error = error as? ActionRegistryError, case .undecodable = error else {
          return false
        }
        return true
      }
    }
  }

  @Test("encoding an action of an unregistered type throws unregisteredType")
  func unregisteredType() {
    #expect {
      try bookmarkRegistry().encode(NotRegistered())
    } throws: { error in
      guard let error = error as? ActionRegistryError, case .unregisteredType(let name) = error
      else { return false }
      return name.hasSuffix("NotRegistered")
    }
  }

  @Test("tags are listed sorted, and tags are found by type and by action")
  func tags() {
    let registry = ActionRegistry()
      .registering(RemoveBookmark.self, tag: "bookmark.remove")
      .registering(AddBookmark.self, tag: "bookmark.add")
    #expect(registry.tags == ["bookmark.add", "bookmark.remove"])
    #expect(registry.tag(for: RemoveBookmark.self) == "bookmark.remove")
    #expect(registry.tag(of: AddBookmark(url: "u")) == "bookmark.add")
    #expect(registry.tag(for: NotRegistered.self) == nil)
    #expect(registry.contains(tag: "bookmark.add"))
    #expect(!registry.contains(tag: "bookmark.move"))
  }

  @Test("registering the same type under the same tag twice is harmless")
  func idempotentRegistration() {
    var registry = bookmarkRegistry()
    let before = registry.fingerprint
    registry.register(AddBookmark.self, tag: "bookmark.add")
    #expect(registry.tags == ["bookmark.add", "bookmark.remove"])
    #expect(registry.fingerprint == before)
  }

  @Test("registering a second type under a tag traps")
  func duplicateTagTraps() async {
    await #expect(processExitsWith: .failure) {
      var registry = ActionRegistry()
      registry.register(AddBookmark.self, tag: "bookmark")
      registry.register(RemoveBookmark.self, tag: "bookmark")
    }
  }

  @Test("registering a type under a second tag traps")
  func secondTagTraps() async {
    await #expect(processExitsWith: .failure) {
      var registry = ActionRegistry()
      registry.register(AddBookmark.self, tag: "bookmark.add")
      registry.register(AddBookmark.self, tag: "bookmark.create")
    }
  }

  @Test("the fingerprint is 64 hex digits and the same for registries built alike")
  func fingerprintIsStable() {
    let first = bookmarkRegistry().fingerprint
    let second = ActionRegistry()
      .registering(RemoveBookmark.self, tag: "bookmark.remove")
      .registering(AddBookmark.self, tag: "bookmark.add")
      .fingerprint
    #expect(first == second)
    #expect(first.count == 64)
    #expect(first.allSatisfy { "0123456789abcdef".contains($0) })
  }

  @Test("another process computes the same fingerprint, private type names included")
  func fingerprintAcrossProcesses() async throws {
    let description = bookmarkRegistry().schemaDescription
    #expect(description.contains("TandemTests.(private).AddBookmark"))
    #expect(!description.contains("unknown context"))
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      print(bookmarkRegistry().fingerprint)
    }
    let printed = String(decoding: result.standardOutputContent, as: UTF8.self)
    #expect(printed == bookmarkRegistry().fingerprint + "\n")
  }

  @Test("the fingerprint changes with a tag, a type or a type's structure")
  func fingerprintChanges() {
    let base = bookmarkRegistry().fingerprint
    let renamedTag = ActionRegistry()
      .registering(AddBookmark.self, tag: "bookmark.add")
      .registering(RemoveBookmark.self, tag: "bookmark.delete")
    let otherType = ActionRegistry()
      .registering(AddBookmark.self, tag: "bookmark.add")
      .registering(RenameBookmark.self, tag: "bookmark.remove")
    let extraTag = bookmarkRegistry().registering(RenameBookmark.self, tag: "bookmark.rename")
    let fingerprints = [base, renamedTag.fingerprint, otherType.fingerprint, extraTag.fingerprint]
    #expect(Set(fingerprints).count == 4)
  }

  @Test("the schema description lists each tag with its type and coding structure")
  func schemaDescription() {
    let lines = bookmarkRegistry().schemaDescription.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].hasPrefix("bookmark.add\tTandemTests."))
    #expect(lines[1].hasSuffix("$:{} $.url:String $.tags:[] $.tags[0]:String"))
    #expect(lines[2].hasSuffix("$:{} $.url:String"))
  }

  @Test("an optional member is described as possibly nil")
  func optionalShape() {
    #expect(
      TypeShape.describe(RenameBookmark.self) == "$:{} $.url:String $.title:nil? $.title:String")
  }

  @Test("CaseIterable enums are described by their cases; other members by their types")
  func variousShapes() {
    struct Various: Codable {
      enum Kind: String, Codable, CaseIterable { case book, film }
      var kind: Kind
      var scores: [String: Int]
      var pairs: [Int: String]
      var labels: Set<String>
      var when: Date
    }
    #expect(
      TypeShape.describe(Various.self)
        == "$:{} $.kind:enum[book:String,film:String] $.scores:{} $.pairs:{} $.labels:[] "
        + "$.labels[0]:String $.when:Double")
  }

  @Test("a raw-value enum that is not CaseIterable ends the description, stably")
  func rawEnumShape() {
    struct Tagged: Codable {
      enum Kind: String, Codable { case book, film }
      var kind: Kind
      var title: String
    }
    #expect(TypeShape.describe(Tagged.self) == "$:{} $.kind:String !dataCorrupted")
  }

  @Test("an enum with associated values ends the description, stably")
  func payloadEnumShape() {
    enum Change: Codable { case add(String), remove(index: Int) }
    #expect(TypeShape.describe(Change.self) == "$:{} !typeMismatch")
  }

  @Test("a recursive type is described up to a limit instead of looping")
  func recursiveShape() {
    struct Node: Codable { var children: [Node] }
    let shape = TypeShape.describe(Node.self)
    #expect(shape.hasSuffix("!limit:depth"))
  }

  @Test("many tasks encode and decode with one registry at once")
  func concurrentUse() async throws {
    let registry = bookmarkRegistry()
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 0..<64 {
        group.addTask {
          let action = AddBookmark(url: "https://example.com/\(index)")
          let (tag, payload) = try registry.encode(action)
          return try registry.decode(tag: tag, payload: payload) as? AddBookmark == action
        }
      }
      for try await matched in group {
        #expect(matched)
      }
    }
  }

  @Test("SHA-256 matches the FIPS 180-4 test vectors")
  func sha256Vectors() {
    #expect(
      SHA256.hexDigest(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hexDigest([])
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hexDigest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }
}
