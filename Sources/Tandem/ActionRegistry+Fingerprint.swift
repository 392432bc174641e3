extension ActionRegistry {
  /// A text that describes the registry: one line per tag, in tag order, with the tag, the Swift
  /// type name and the type's `Decodable` structure.
  ///
  /// Two registries with the same description have the same ``fingerprint``; comparing the
  /// descriptions line by line shows what differs when the fingerprints do not match.
  public var schemaDescription: String {
    var text = "tandem-action-registry 1\n"
    for entry in entriesSortedByTag {
      text += entry.tag + "\t" + entry.typeName + "\t" + entry.shape + "\n"
    }
    return text
  }

  /// A fingerprint of the registered tags and types: the SHA-256 of ``schemaDescription``, as 64
  /// lowercase hexadecimal digits.
  ///
  /// Processes built from the same code compute the same fingerprint, so a leader and a follower
  /// can compare theirs before exchanging actions and refuse to work together when they differ.
  /// It changes when a tag is added, removed or renamed, when a registered type is renamed or
  /// moved to another module, and when a type's coding keys or their value types change, as far
  /// as a probe of the types' `init(from:)` can see them (see <doc:TaggingActions>).
  public var fingerprint: String {
    SHA256.hexDigest(Array(schemaDescription.utf8))
  }
}

extension ActionRegistry {
  /// The registered tags with their types, in tag order (an event type under its prefix and
  /// `*`), for describing each payload's schema outside this module.
  package var registeredTypes: [(tag: String, type: any (Action & Codable).Type)] {
    entriesSortedByTag.map { ($0.tag, $0.type) }
  }
}
