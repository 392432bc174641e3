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
  /// The words that are neither options nor flags, in order.
  public private(set) var positionals: [String] = []

  /// Splits `words`; a `--name` listed in `flags` takes no value, every other `--name` does (the
  /// next word, whatever it is). The words after a bare `--` are all positional.
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
      if value == nil {
        guard index < words.count else { throw UsageError("--\(name) needs a value") }
        value = words[index]
        index += 1
      }
      guard options[name] == nil else { throw UsageError("--\(name) is given twice") }
      options[name] = value
    }
  }

  /// The word after which every word is positional: `--`.
  public static let endOfOptions = "--"

  /// Whether `--name` was given; consumes it.
  public mutating func flag(_ name: String) -> Bool {
    flags.remove(name) != nil
  }

  /// The value of `--name`, if given; consumes it.
  public mutating func option(_ name: String) -> String? {
    options.removeValue(forKey: name)
  }

  /// The value of `--name`, or a usage error saying it is required.
  public mutating func required(_ name: String) throws(UsageError) -> String {
    guard let value = option(name) else { throw UsageError("missing --\(name)") }
    return value
  }

  /// The value of `--name` as a whole number within `range`, or `defaultValue` when absent.
  public mutating func integer(
    _ name: String, default defaultValue: Int, in range: ClosedRange<Int> = 0...Int.max
  ) throws(UsageError) -> Int {
    guard let text = option(name) else { return defaultValue }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "--\(name) takes a whole number in \(range.lowerBound)...\(range.upperBound)")
    }
    return value
  }

  /// Fails on any option, flag or positional word nobody consumed.
  public func finish(allowingPositionals: Int = 0) throws(UsageError) {
    if let name = options.keys.sorted().first ?? flags.sorted().first {
      throw UsageError("unknown option --\(name)")
    }
    if positionals.count > allowingPositionals {
      throw UsageError("unexpected argument '\(positionals[allowingPositionals])'")
    }
  }
}
