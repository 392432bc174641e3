import Foundation
import Testing

@testable import TandemProtocol
@testable import TandemSync

/// Key files and the key store: what parses, what is refused and how the refusal names the file.
@Suite("Key files and the key store")
struct KeyStoreTests {
  @Test func aKeyPairFileRoundTripsAndItsPublicPartHasNoSecret() throws {
    let pair = try KeyFile.generate(name: "worker-1")
    let parsed = try KeyFile.parse(pair.text, path: "w.secret")
    #expect(parsed == pair)
    #expect(pair.publicPart.secretKey == nil)
    #expect(!pair.publicPart.text.contains(pair.secretKey!.z85))
  }

  @Test(
    "malformed key files are refused with the line and what is wrong",
    arguments: [
      ("name = a\n", "no `public-key"),
      ("public-key = rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7\n", "no `name"),
      ("name = a b\npublic-key = rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7\n", "line 1"),
      ("name = a\npublic-key = short\n", "line 2: public-key is not 40 characters of Z85"),
      ("name = a\nname = b\n", "line 2: 'name' is given twice"),
      ("name = a\ncolour = blue\n", "unknown field 'colour'"),
      ("name = a\npublic-key = rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7\nrole = boss\n",
       "role 'boss' is not read, write or admin"),
      ("just words\n", "line 1: expected `field = value`"),
    ])
  func malformed(text: String, expected: String) {
    #expect {
      try KeyFile.parse(text, path: "k.key")
    } throws: { error in
      "\(error)".contains(expected) && "\(error)".hasPrefix("k.key")
    }
  }

  @Test func aSecretKeyThatIsNotThePublicKeysIsRefused() throws {
    let one = try KeyFile.generate(name: "one")
    let other = try KeyFile.generate(name: "other")
    var mixed = one
    mixed.secretKey = other.secretKey
    #expect(throws: KeyStoreError.self) { try KeyFile.parse(mixed.text, path: "m") }
  }

  @Test func theStoreAddsListsAndRevokesAndRefusesDuplicates() throws {
    let keys = try KeyFixture()
    let alice = try keys.key("alice", role: .write, tags: ["a", "b"])
    try keys.key("bob", role: .read)
    var store = try KeyStore.load(keys.store)
    #expect(store.entries.map(\.name) == ["alice", "bob"])
    #expect(store.grant(for: alice.publicKey) == KeyGrant(name: "alice", role: .write, tags: ["a", "b"]))
    #expect(throws: KeyStoreError.self) { try KeyStore.add(alice, role: .read, to: keys.store) }
    var renamed = alice
    renamed.name = "alice2"
    #expect(throws: KeyStoreError.self) { try KeyStore.add(renamed, role: .read, to: keys.store) }
    try KeyStore.revoke(name: "bob", in: keys.store)
    store = try KeyStore.load(keys.store)
    #expect(store.entries.map(\.name) == ["alice"])
    #expect(FileManager.default.fileExists(atPath: keys.store + "/revoked/bob.key"))
    #expect(throws: KeyStoreError.unknownKey(name: "bob", store: keys.store)) {
      try KeyStore.revoke(name: "bob", in: keys.store)
    }
  }

  @Test func aStoreWithASecretKeyOrTwoFilesOfOneKeyIsRefusedNamingTheFile() throws {
    let keys = try KeyFixture()
    let alice = try keys.key("alice")
    var copy = alice.publicPart
    copy.name = "alias"
    copy.role = .read
    try copy.write(to: keys.store + "/alias.key")
    #expect {
      try KeyStore.load(keys.store)
    } throws: { error in
      "\(error)".contains("same public key")
    }
    try FileManager.default.removeItem(atPath: keys.store + "/alias.key")
    var secret = try KeyFile.generate(name: "leaky")
    secret.role = .read
    try secret.write(to: keys.store + "/leaky.key")
    #expect {
      try KeyStore.load(keys.store)
    } throws: { error in
      "\(error)".contains("leaky.key") && "\(error)".contains("holds a secret key")
    }
  }
}
