import CommandLineKit
import StatePatch
import TandemCLI
import Testing

@Suite("Command-line options of the tandem commands")
struct OptionsTests {
  let leader = "ipc:///run/tandem/leader.control"

  @Test func aMissingLeaderSaysWhereToFindOne() {
    #expect {
      _ = try ReadOptions(arguments: ["--json"], environment: .some(nil))
    } throws: { error in
      "\(error)".contains("missing --leader") && "\(error)".contains("TANDEM_LEADER")
    }
  }

  @Test func theEnvironmentSuppliesTheLeader() throws {
    let options = try ReadOptions(arguments: [], environment: .some(leader))
    #expect(options.connection.leader == leader)
    #expect(options.connection.timeout == .seconds(5))
  }

  @Test func aWrongLeaderFromTheEnvironmentIsNamedSo() {
    #expect {
      try ReadOptions(arguments: [], environment: .some("tcp://127.0.0.1"))
    } throws: { error in
      "\(error)".hasPrefix("TANDEM_LEADER 'tcp://127.0.0.1' has no port")
    }
    // An empty TANDEM_LEADER is no leader; an empty --leader is a mistake of its own.
    #expect {
      try ReadOptions(arguments: [], environment: .some(""))
    } throws: { error in
      "\(error)".hasPrefix("missing --leader")
    }
    #expect {
      try ReadOptions(arguments: ["--leader", ""], environment: .some(leader))
    } throws: { error in
      "\(error)".hasPrefix("--leader is empty")
    }
  }

  @Test func anEndpointMustHaveATransportAndATcpPort() {
    #expect(throws: UsageError.self) {
      try ReadOptions(arguments: ["--leader", "127.0.0.1:5600"], environment: .some(nil))
    }
    #expect {
      try ReadOptions(arguments: ["--leader", "tcp://127.0.0.1"], environment: .some(nil))
    } throws: { error in
      "\(error)".contains("has no port")
    }
  }

  @Test func anEndpointAnotherProcessCannotConnectToIsAUsageError() {
    // A wildcard or empty host is for binding, a port must be 1...65535, and inproc:// (or a
    // multicast transport) cannot reach a leader in another process. The endpoints are only
    // parsed: nothing binds or connects, so any port in range serves.
    let port = Int.random(in: 1...65535)
    let cases = [
      ("tcp://*:\(port)", "wildcard"), ("tcp://:\(port)", "wildcard"),
      ("tcp://127.0.0.1:\(65535 + port)", "1...65535"), ("tcp://127.0.0.1:0", "1...65535"),
      ("inproc://leader", "tcp://HOST:PORT or ipc://PATH"),
      ("pgm://eth0;239.192.1.1:5555", "tcp://HOST:PORT or ipc://PATH"),
    ]
    for (endpoint, message) in cases {
      #expect {
        try ReadOptions(arguments: ["--leader", endpoint], environment: .some(nil))
      } throws: { error in
        error is UsageError && "\(error)".contains(message)
      }
    }
    #expect(throws: Never.self) {
      try ReadOptions(arguments: ["--leader", "tcp://[::1]:\(port)"], environment: .some(nil))
    }
  }

  @Test func pathJsonTimeoutAndCountAreRead() throws {
    let options = try ReadOptions(
      arguments: [
        "--leader", leader, "--path", "/a~1b/0", "--json", "--timeout", "2",
        "--count", "3",
      ],
      forWatch: true)
    #expect(options.path == JSONPointer(tokens: ["a/b", "0"]))
    #expect(options.json)
    #expect(options.count == 3)
    #expect(options.connection.timeout == .seconds(2))
  }

  @Test func exitOnLossIsAWatchFlag() throws {
    #expect(try ReadOptions(arguments: ["--leader", leader], forWatch: true).exitOnLoss == false)
    let options = try ReadOptions(
      arguments: ["--leader", leader, "--exit-on-loss"], forWatch: true)
    #expect(options.exitOnLoss)
    #expect(throws: UsageError("unknown option --exit-on-loss")) {
      try ReadOptions(arguments: ["--leader", leader, "--exit-on-loss"])
    }
  }

  @Test func snapshotDoesNotTakeACount() {
    #expect(throws: UsageError("unknown option --count")) {
      try ReadOptions(arguments: ["--leader", leader, "--count", "3"])
    }
  }

  @Test func aBadPointerExplainsTheSyntax() {
    #expect {
      try ReadOptions(arguments: ["--leader", leader, "--path", "counter"])
    } throws: { error in
      "\(error)".contains("is not a JSON pointer") && "\(error)".contains("~1")
    }
  }

  @Test func aCountMustBePositive() {
    #expect(throws: UsageError("--count takes a whole number of deltas, at least 1, not '0'")) {
      try ReadOptions(arguments: ["--leader", leader, "--count", "0"], forWatch: true)
    }
  }

  @Test func dispatchNeedsATypeAndDefaultsToAnEmptyPayload() throws {
    #expect {
      try DispatchOptions(arguments: ["--leader", leader])
    } throws: { error in
      "\(error)".contains("missing --type")
    }
    #expect {
      try DispatchOptions(arguments: ["--leader", leader, "--type", ""])
    } throws: { error in
      "\(error)".hasPrefix("--type is empty")
    }
    let options = try DispatchOptions(arguments: ["--leader", leader, "--type", "shelf.add"])
    #expect(options.tag == "shelf.add")
    #expect(options.payload == .object(JSONObject()))
  }

  @Test func dispatchReadsItsPayloadAsJSON() throws {
    let options = try DispatchOptions(
      arguments: ["--leader", leader, "--type", "shelf.add", "--json", #"{"title": "Dune"}"#])
    #expect(options.payload == ["title": "Dune"])
    #expect {
      try DispatchOptions(arguments: ["--leader", leader, "--type", "t", "--json", "{title}"])
    } throws: { error in
      "\(error)".contains("--json is not valid JSON")
    }
  }

  @Test func statsReadsJsonAndMaximumLag() throws {
    let options = try StatsOptions(arguments: ["--leader", leader, "--json", "--max-lag", "10"])
    #expect(options.json)
    #expect(options.maximumLag == 10)
    #expect {
      try StatsOptions(arguments: ["--leader", leader, "--max-lag", "-1"])
    } throws: { error in
      "\(error)".contains("--max-lag takes a whole number") && "\(error)".hasSuffix("not '-1'")
    }
  }

  @Test func rawSendsEachWordAsAFrame() throws {
    let options = try RawOptions(arguments: ["--leader", leader, "PING", "x:00ff", "x:"])
    #expect(options.frames == [Array("PING".utf8), [0x00, 0xFF], []])
    #expect(throws: UsageError("give at least one FRAME, e.g. PING cli x:0000000000000000")) {
      try RawOptions(arguments: ["--leader", leader])
    }
    #expect(throws: UsageError("'x:0' is not x: followed by an even number of hex digits")) {
      try RawOptions(arguments: ["--leader", leader, "x:0"])
    }
  }

  @Test func rawFramesAfterADoubleDashMayStartWithTwoDashes() throws {
    let options = try RawOptions(
      arguments: ["--leader", leader, "PING", "--", "--timeout", "--", "x:01"])
    #expect(options.frames == [Array("PING".utf8), Array("--timeout".utf8), Array("--".utf8), [1]])
    #expect(options.connection.timeout == .seconds(5))
    #expect(throws: UsageError("unknown option --PING")) {
      try RawOptions(arguments: ["--leader", leader, "--PING"])
    }
  }

  @Test func unknownOptionsAreReported() {
    #expect(throws: UsageError("unknown option --jsn")) {
      try StatsOptions(arguments: ["--leader", leader, "--jsn", "1"])
    }
    #expect(throws: UsageError("unknown option --jsn")) {
      try StatsOptions(arguments: ["--leader", leader, "--jsn"])
    }
    #expect(throws: UsageError("--timeout takes a whole number in 1...3600, not '0'")) {
      try StatsOptions(arguments: ["--leader", leader, "--timeout", "0"])
    }
  }
}
