/// The fewest single-letter insertions, deletions and substitutions that turn `a` into `b`.
func editDistance(_ a: String, _ b: String) -> Int {
  let (a, b) = (Array(a), Array(b))
  var previous = Array(0...b.count)
  for (i, letter) in a.enumerated() {
    var current = [i + 1]
    for (j, other) in b.enumerated() {
      current.append(
        min(previous[j + 1] + 1, current[j] + 1, previous[j] + (letter == other ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.count]
}

/// The word of `candidates` that `word` most likely misspells: the nearest at most two edits
/// away (ties go to the first in order), or one `word` is a prefix of (`stat` for `stats`).
func likelyMeant(_ word: String, among candidates: [String]) -> String? {
  let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 }
  if let nearest = scored.min(by: { $0.1 < $1.1 }) { return nearest.0 }
  guard word.count >= 2 else { return nil }
  let prefixed = candidates.filter { $0.hasPrefix(word) }
  return prefixed.count == 1 ? prefixed[0] : nil
}
