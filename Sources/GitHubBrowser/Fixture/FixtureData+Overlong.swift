extension FixtureData {
  /// `owner` with text longer than the browser's state keeps in every repository: a README of
  /// 160 KiB (``BrowserState/maximumReadmeBytes``), and a description, a language, commit
  /// messages' first lines and author names each half as long again as their ``TextBound``,
  /// every one with a character of several bytes across its bound, and across 3 bytes before
  /// it, where a cut that adds "…" falls.
  static func withLongText(_ owner: Owner) -> Owner {
    var owner = owner
    for index in owner.repositories.indices {
      var repository = owner.repositories[index]
      repository.readme = longText(
        "# \(repository.name)\n\nA README longer than the browser keeps.\n\n",
        crossing: BrowserState.maximumReadmeBytes, length: BrowserState.maximumReadmeBytes * 5 / 2,
        separator: "\n")
      repository.description = longText(
        "A description longer than the browser keeps. ", crossing: TextBound.description)
      repository.language = longText("", crossing: TextBound.language)
      for number in repository.commits.indices {
        repository.commits[number].message =
          longText("Change \(number), summed up at length: ", crossing: TextBound.commitTitle)
          + "\n\nThe body, which the browser does not keep."
        repository.commits[number].author = longText("Ada ", crossing: TextBound.personName)
      }
      owner.repositories[index] = repository
    }
    return owner
  }

  /// `owner` (with two repositories) with names longer than GitHub allows: the first
  /// repository has a branch whose name has 314 bytes (``NameBound/branchName``), the second a
  /// name of 116 (``NameBound/repositoryName``).
  static func withOverlongNames(_ owner: Owner) -> Owner {
    var owner = owner
    owner.repositories[0].branches.append(
      "feature/" + String(repeating: "a-branch-name-longer-than-any-ref-", count: 9))
    owner.repositories[1].name = String(repeating: "a-repository-name-", count: 6) + "too-long"
    return owner
  }

  /// The message of the special owner `blocked`'s 451: 4 KiB, with a character of several
  /// bytes across ``TextBound/message``.
  static let blockedMessage = longText(
    "Repository access blocked. ", crossing: TextBound.message.maximumBytes, length: 4 << 10,
    separator: " ")

  /// Text half as long again as `bound` allows, on one line.
  private static func longText(_ start: String, crossing bound: TextBound) -> String {
    longText(
      start, crossing: bound.maximumBytes, length: bound.maximumBytes * 3 / 2, separator: " ")
  }

  /// `start`, sentences of ASCII (each ending with `separator`) and dots up to 5 bytes before
  /// the byte `offset`, a family emoji (one character of 18 bytes) across both `offset` and 3
  /// bytes before it (where a cut that adds "…" falls), then sentences of accented and CJK text
  /// to `length` bytes or a little more.
  private static func longText(
    _ start: String, crossing offset: Int, length: Int, separator: String
  ) -> String {
    var text = start
    var number = 1
    while true {
      let line = "Line \(number): the harbor keeps a record of every ship it ever saw.\(separator)"
      guard text.utf8.count + line.utf8.count <= offset - 5 else { break }
      text += line
      number += 1
    }
    text += String(repeating: ".", count: offset - 5 - text.utf8.count) + "👩‍👩‍👧"
    while text.utf8.count < length {
      text += "\(separator)Zeile \(number): Grüße, naïve café, 港の記録."
      number += 1
    }
    return text
  }
}
