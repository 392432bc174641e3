extension String {
  /// The longest prefix of whole characters that takes at most `limit` bytes of UTF-8 (the
  /// whole string when it fits): for text kept or sent within a byte bound.
  package func prefix(maximumUTF8Bytes limit: Int) -> Substring {
    guard utf8.count > limit else { return self[...] }
    var end = utf8.index(startIndex, offsetBy: max(limit, 0))
    // Back to the start of the character the bound falls in.
    while String.Index(end, within: self) == nil { end = utf8.index(before: end) }
    return self[..<end]
  }

  /// This text if it takes at most `limit` bytes of UTF-8; otherwise its longest prefix of whole
  /// characters that fits in `limit` with "…" (3 bytes) after it, which shows that it was cut.
  package func shortened(toUTF8Bytes limit: Int) -> String {
    guard utf8.count > limit else { return self }
    let ellipsis = "…"
    return prefix(maximumUTF8Bytes: limit - ellipsis.utf8.count) + ellipsis
  }
}
