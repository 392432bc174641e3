/// The words after a command's name: `--name value` or `--name=value` options, `--flag` switches
/// and positional words, consumed by name so that anything left over is reported as unknown.
/// A bare `--` ends the options: every word after it is positional, even one that starts with
/// `--` (`tandem raw -- --frame`).
///
/// ```swift
/// var arguments = try CommandLineArguments(["--runs", "7", "--json"], flags: ["json"])
/// let runs = try arguments.integer("runs", default: 5)  // 7
/// let json = arguments.flag("json")                    // true
/// try arguments.finish()                               // nothing left over
/// ```
public struct CommandLineArguments {
  private var options: [String: String] = [:]
  private var flags: Set<String> = []
  /// A last word `--name` without a value: an option given without one if the command reads
  /// it, an unknown option if not (``finish(allowingPositionals:)`` says which).
  private var valueless: (name: String, read: Bool)?
  /// The words that are neither options nor flags, in order.
  public private(set) var positionals: [String] = []

  /// Splits `words`; a `--name` listed in `flags` takes no value, every other `--name` does (the
  /// next word, whatever it is). The words after a bare `--` are all positional. A last word
  /// `--name` without a value is reported when the command reads it, or by
  /// ``finish(allowingPositionals:)`` as an unknown option.
  public init(_ words: [String], flags knownFlags: Set<String> = []) throws(UsageError) {
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      if word == Self.endOfOptions {
        positionals += words[index...]
        break
      }
      guard word.hasPrefix("--"), word.count > 2 else {
        positionals.append(word)
        continue
      }
      var name = String(word.dropFirst(2))
      var value: String?
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if knownFlags.contains(name) {
        guard value == nil else { throw UsageError("--\(name) takes no value") }
        flags.insert(name)
        continue
      }
      guard options[name] == nil else { throw UsageError("--\(name) is given twice") }
      if value == nil {
        guard index < words.count else {
          valueless = (name, false)
          break
        }
        value = words[index]
        index += 1
      }
      options[name] = value
    }
  }

  /// The word after which every word is positional: `--`.
  public static let endOfOptions = "--"

  /// Whether `--name` was given; consumes it.
  public mutating func flag(_ name: String) -> Bool {
    flags.remove(name) != nil
  }

  /// The value of `--name`, if given; consumes it. `nil` for a last word `--name` without a
  /// value too: ``finish(allowingPositionals:)`` then fails saying it needs one.
  public mutating func option(_ name: String) -> String? {
    if valueless?.name == name { valueless?.read = true }
    return options.removeValue(forKey: name)
  }

  /// The value of `--name`, or a usage error saying it is required or needs a value.
  public mutating func required(_ name: String) throws(UsageError) -> String {
    guard let value = try given(name) else { throw missing(name) }
    return value
  }

  /// The usage error for a required `--name` that was not given: "missing --name", then
  /// `advice` (what to give), and a given option nobody has read yet whose name is at most two
  /// letters from it, if any, as a likely misspelling (`--lader` for `--leader`).
  public func missing(_ name: String, _ advice: String? = nil) -> UsageError {
    let near = (Array(options.keys) + flags).sorted().first { editDistance($0, name) <= 2 }
    return UsageError(
      "missing --\(name)" + (advice.map { ": \($0)" } ?? "")
        + (near.map { " (--\($0) was given: a misspelling of --\(name)?)" } ?? ""))
  }

  /// The value of `--name` as `parse` reads it, if given; a usage error saying the value
  /// should be `expected` when `parse` returns `nil`.
  public mutating func option<Value>(
    _ name: String, expected: String, _ parse: (String) -> Value?
  ) throws(UsageError) -> Value? {
    guard let text = try given(name) else { return nil }
    guard let value = parse(text) else {
      throw UsageError("--\(name) takes \(expected), not '\(text)'")
    }
    return value
  }

  /// The value of `--name` as a whole number within `range`, or `defaultValue` when absent.
  public mutating func integer(
    _ name: String, default defaultValue: Int, in range: ClosedRange<Int> = 0...Int.max
  ) throws(UsageError) -> Int {
    guard let text = try given(name) else { return defaultValue }
    guard let value = Int(text), range.contains(value) else {
      let expected =
        range.upperBound == Int.max
        ? "a whole number of at least \(range.lowerBound)"
        : "a whole number in \(range.lowerBound)...\(range.upperBound)"
      throw UsageError("--\(name) takes \(expected), not '\(text)'")
    }
    return value
  }

  /// Fails on any option, flag or positional word nobody consumed, and on an option read that
  /// was the last word and had no value.
  public func finish(allowingPositionals: Int = 0) throws(UsageError) {
    if let valueless, valueless.read { throw Self.needsValue(valueless.name) }
    let unknown = options.keys.sorted().first ?? flags.sorted().first ?? valueless?.name
    if let name = unknown {
      throw UsageError("unknown option --\(name)")
    }
    if positionals.count > allowingPositionals {
      throw UsageError("unexpected argument '\(positionals[allowingPositionals])'")
    }
  }

  /// The value of `--name`, if given; consumes it. Fails when `--name` was the last word and
  /// had no value.
  private mutating func given(_ name: String) throws(UsageError) -> String? {
    if valueless?.name == name { throw Self.needsValue(name) }
    return option(name)
  }

  private static func needsValue(_ name: String) -> UsageError {
    UsageError("--\(name) needs a value")
  }
}
