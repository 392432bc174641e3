import Testing

@testable import CommandLineKit

@Suite("Command-line arguments")
struct CommandLineArgumentsTests {
  @Test func optionsFlagsAndPositionals() throws {
    var arguments = try CommandLineArguments(
      ["store", "--runs", "7", "--json", "--path=/a/b"], flags: ["json"])
    let json = arguments.flag("json")
    let path = arguments.option("path")
    let runs = try arguments.integer("runs", default: 5)
    #expect(json)
    #expect(path == "/a/b")
    #expect(runs == 7)
    #expect(arguments.positionals == ["store"])
    try arguments.finish(allowingPositionals: 1)
  }

  @Test func wordsAfterADoubleDashArePositional() throws {
    var arguments = try CommandLineArguments(
      ["--json", "a", "--", "--runs", "7", "--json", "--", "-h"], flags: ["json"])
    let json = arguments.flag("json")
    let runs = arguments.option("runs")
    #expect(json)
    #expect(runs == nil)
    #expect(arguments.positionals == ["a", "--runs", "7", "--json", "--", "-h"])
    try arguments.finish(allowingPositionals: 6)

    let trailing = try CommandLineArguments(["--runs", "7", "--"])
    #expect(trailing.positionals.isEmpty)
    #expect(throws: UsageError("unexpected argument '--x'")) {
      try CommandLineArguments(["--", "--x"]).finish()
    }
  }

  @Test func anOptionsValueMayBeADoubleDash() throws {
    var arguments = try CommandLineArguments(["--path", "--", "b"])
    let path = arguments.option("path")
    #expect(path == "--")
    #expect(arguments.positionals == ["b"])
  }

  @Test func defaultsApplyWhenAbsent() throws {
    var arguments = try CommandLineArguments([])
    let runs = try arguments.integer("runs", default: 5)
    let json = arguments.flag("json")
    let path = arguments.option("path")
    #expect(runs == 5)
    #expect(!json)
    #expect(path == nil)
  }

  @Test func errorsSayWhatIsWrong() throws {
    #expect(throws: UsageError("--json takes no value")) {
      try CommandLineArguments(["--json=yes"], flags: ["json"])
    }
    #expect(throws: UsageError("--a is given twice")) {
      try CommandLineArguments(["--a", "1", "--a", "2"])
    }
    var arguments = try CommandLineArguments(["--runs", "x", "--what", "1", "extra"])
    #expect(throws: UsageError("--runs takes a whole number in 1...9, not 'x'")) {
      var copy = arguments
      _ = try copy.integer("runs", default: 5, in: 1...9)
    }
    #expect(throws: UsageError("--runs takes a whole number of at least 1, not 'x'")) {
      var copy = arguments
      _ = try copy.integer("runs", default: 5, in: 1...Int.max)
    }
    _ = arguments.option("runs")
    #expect(throws: UsageError("unknown option --what")) { try arguments.finish() }
    _ = arguments.option("what")
    #expect(throws: UsageError("unexpected argument 'extra'")) { try arguments.finish() }
    #expect(throws: UsageError("missing --leader")) {
      var copy = arguments
      _ = try copy.required("leader")
    }
  }

  @Test func aMissingOptionNamesAGivenOneThatLooksLikeAMisspellingOfIt() throws {
    let arguments = try CommandLineArguments(["--lader", "tcp://h:1", "--json", "--timeout", "5"])
    let error = arguments.missing("leader", "give the leader's endpoint")
    #expect(
      error
        == UsageError(
          "missing --leader: give the leader's endpoint (--lader was given: a misspelling of "
            + "--leader?)"))
    // Nothing within two letters: no guess.
    #expect(arguments.missing("type") == UsageError("missing --type"))
  }

  @Test func aLastOptionWithoutAValueIsUnknownUnlessTheCommandReadsIt() throws {
    // A misspelt flag at the end is an unknown option, not an option that needs a value.
    #expect(throws: UsageError("unknown option --jsn")) {
      var arguments = try CommandLineArguments(["--leader", "x", "--jsn"], flags: ["json"])
      _ = arguments.option("leader")
      _ = arguments.flag("json")
      try arguments.finish()
    }
    for read in ["option", "required", "integer"] {
      var arguments = try CommandLineArguments(["--path", "/a", "--runs"])
      _ = arguments.option("path")
      #expect(throws: UsageError("--runs needs a value"), "read by \(read)") {
        switch read {
        case "option": _ = arguments.option("runs")
        case "required": _ = try arguments.required("runs")
        default: _ = try arguments.integer("runs", default: 5)
        }
        try arguments.finish()
      }
    }
    #expect(throws: UsageError("--runs is given twice")) {
      try CommandLineArguments(["--runs", "1", "--runs"])
    }
  }
}
