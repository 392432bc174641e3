import CommandLineKit
import StatePatch
import TandemCLI
import TandemProtocol
import TandemSync
import Testing

@Suite("Output of the tandem commands")
struct ReportTests {
  let epoch = Epoch(rawValue: 0xABC)

  func delta(_ patch: String, sequence: UInt64 = 7) -> Delta {
    Delta(
      sequence: sequence, origin: Origin(client: "web-1", number: 3), tag: "shelf.add",
      patch: Array(patch.utf8))
  }

  @Test func prettyJSONIndentsNestedValues() {
    let value: JSONValue = ["count": 2, "books": ["Dune", "Emma"], "empty": [:], "none": []]
    #expect(
      PrettyJSON.text(value) == """
        {
          "books": [
            "Dune",
            "Emma"
          ],
          "count": 2,
          "empty": {},
          "none": []
        }
        """)
    #expect(PrettyJSON.text("a\"b") == #""a\"b""#)
  }

  @Test func aDeltaReadsAsOneLinePerOperation() throws {
    let text = try DeltaReport().render(
      delta(
        #"[{"op":"replace","path":"/count","value":2},{"op":"add","path":"/books/-","value":"Emma"}]"#
      ),
      epoch: epoch)
    #expect(
      text == """
        #7 shelf.add from web-1#3
          replace /count 2
          add /books/- "Emma"
        """)
  }

  @Test func aDeltaOfSeveralActionsHasALineForEach() throws {
    let delta = Delta(
      sequence: 9,
      actions: [
        AppliedAction(
          origin: Origin(client: "web-1", number: 3, key: "worker-1"), tag: "shelf.add"),
        AppliedAction(origin: .leader, tag: ""),
      ],
      patch: Array(#"[{"op":"replace","path":"/count","value":3}]"#.utf8))
    #expect(
      try DeltaReport().render(delta, epoch: epoch) == """
        #8 shelf.add from web-1#3 key worker-1
        #9 (untagged) from leader
          replace /count 3
        """)
  }

  @Test func aDeltaInJSONIsOneCanonicalLine() throws {
    let text = try DeltaReport(json: true).render(
      delta(#"[{"op":"replace","path":"/count","value":2}]"#), epoch: epoch)
    #expect(
      text
        == #"{"actions":[{"origin":{"client":"web-1","key":"","number":3},"sequence":7,"tag":"shelf.add"}],"epoch":"0000000000000abc","patch":[{"op":"replace","path":"/count","value":2}],"sequence":7}"#
    )
  }

  @Test func aPathKeepsOnlyTheOperationsThatTouchIt() throws {
    let patch =
      #"[{"op":"replace","path":"/count","value":2},{"op":"add","path":"/books/-","value":"E"}]"#
    let report = DeltaReport(path: "/books")
    #expect(
      try report.render(delta(patch), epoch: epoch)
        == "#7 shelf.add from web-1#3\n  add /books/- \"E\"")
    #expect(try DeltaReport(path: "/title").render(delta(patch), epoch: epoch) == nil)
    let root = #"[{"op":"replace","path":"","value":{}}]"#
    #expect(try report.render(delta(root), epoch: epoch)?.contains("replace (root) {}") == true)
  }

  @Test func longValuesAreShortenedForPeopleOnly() throws {
    let long = String(repeating: "x", count: 500)
    let patch = #"[{"op":"replace","path":"/note","value":"\#(long)"}]"#
    let text = try DeltaReport().render(delta(patch), epoch: epoch)!
    #expect(text.contains("... (502 bytes)"))
    #expect(text.count < 200)
    #expect(try DeltaReport(json: true).render(delta(patch), epoch: epoch)!.contains(long))
  }

  @Test func aMalformedPatchIsAnError() {
    #expect(throws: JSONPatchError.self) {
      try DeltaReport().render(delta("not json"), epoch: epoch)
    }
  }

  @Test func aResyncIsMarked() {
    #expect(DeltaReport().resync(epoch: epoch, from: 3, to: 90).contains("from sequence 3 to 90"))
    #expect(
      DeltaReport(json: true).resync(epoch: epoch, from: 3, to: 90)
        == #"{"epoch":"0000000000000abc","event":"resync","from":3,"sequence":90}"#)
  }

  @Test func aResyncIsMarkedOnlyWhereTheSequencesJump() {
    let report = DeltaReport()
    // One delta applying the actions of sequences 4...6.
    let grouped = Delta(
      sequence: 6,
      actions: (4...6).map { AppliedAction(origin: Origin(client: "web-1", number: $0), tag: "") },
      patch: Array(#"[{"op":"replace","path":"/count","value":6}]"#.utf8))
    #expect(report.resync(after: (epoch, 3), before: grouped, epoch: epoch) == nil)
    #expect(
      report.resync(after: (epoch, 2), before: grouped, epoch: epoch)
        == report.resync(epoch: epoch, from: 2, to: 3))
    let next = Epoch(rawValue: 0xDEF)
    #expect(
      report.resync(after: (epoch, 3), before: grouped, epoch: next)
        == report.resync(epoch: next, from: 3, to: 3))
  }

  @Test func aWatchChecksItsFirstDeltaAgainstItsAnnouncedStart() throws {
    let report = DeltaReport()
    let start = DeltaReport.start(of: try followerStatistics(epoch: epoch.description, sequence: 5))
    #expect(start == (epoch, 5))
    #expect(report.resync(after: start, before: delta("[]", sequence: 6), epoch: epoch) == nil)
    #expect(
      report.resync(after: start, before: delta("[]", sequence: 8), epoch: epoch)
        == report.resync(epoch: epoch, from: 5, to: 7))
    let unknown = DeltaReport.start(of: try followerStatistics(epoch: "", sequence: 0))
    #expect(unknown == (Epoch(rawValue: 0), 0))
    #expect(
      report.resync(after: unknown, before: delta("[]", sequence: 1), epoch: epoch)
        == report.resync(epoch: epoch, from: 0, to: 0))
  }

  // LeaderStatistics has no public memberwise initializer: build it as `tandem stats` does,
  // from the leader's JSON.
  let statistics = try! decodeStatistics(
    #"{"epoch":"0000000000000abc","sequence":120,"backlogCount":20,"backlogOldest":101,"#
      + #""counters":{"deltasPublished":120,"actionsApplied":118},"followers":["#
      + #"{"client":"web-2","lastSeenMillisecondsAgo":40,"lag":75},"#
      + #"{"client":"web-1","lastSeenMillisecondsAgo":12,"lag":0}]}"#)

  @Test func aStandbyLeadersLeaseIsShownUnderTheBacklog() throws {
    let leased = try decodeStatistics(
      #"{"epoch":"0000000000000abc","sequence":3,"backlogCount":0,"backlogOldest":0,"#
        + #""counters":{},"followers":[],"lease":{"role":"active","holder":"a:41:x","#
        + #""control":"ipc:///run/a-control","fencingEpoch":7,"millisecondsLeft":1180}}"#)
    #expect(
      StatisticsReport.text(leased, leader: "ipc:///run/a-control") == """
        leader    ipc:///run/a-control
        epoch     0000000000000abc
        sequence  3
        backlog   empty
        lease     active; holder a:41:x at ipc:///run/a-control, fencing epoch 7, 1180 ms left
        standbys  none seen lately
        counters
        followers none
        """)
    #expect(leased.lease?.standbys == [])
  }

  @Test func theStandbysAreListedUnderTheLease() throws {
    let leased = try decodeStatistics(
      #"{"epoch":"0000000000000abc","sequence":3,"backlogCount":0,"backlogOldest":0,"#
        + #""counters":{},"followers":[],"lease":{"role":"active","holder":"a:41:x","#
        + #""control":"ipc:///run/a-control","fencingEpoch":7,"millisecondsLeft":1180,"standbys":["#
        + #"{"id":"b:52:y","control":"ipc:///run/b-control","role":"standby","#
        + #""lastSeenMillisecondsAgo":120},{"id":"c:63:z","control":"ipc:///run/c-control","#
        + #""role":"acquiring","lastSeenMillisecondsAgo":40}]}}"#)
    #expect(
      StatisticsReport.text(leased, leader: "ipc:///run/a-control").contains(
        """
        lease     active; holder a:41:x at ipc:///run/a-control, fencing epoch 7, 1180 ms left
        standbys (2)
          b:52:y at ipc:///run/b-control, standby, seen 120 ms ago
          c:63:z at ipc:///run/c-control, acquiring, seen 40 ms ago
        counters
        """))
    // The JSON carries them, and reads back as it was.
    let json = StatisticsReport.json(leased)
    #expect(json.contains(#""standbys":[{"control":"ipc:///run/b-control","id":"b:52:y","#))
    #expect(try decodeStatistics(json) == leased)
  }

  @Test func statisticsReadAsATable() {
    #expect(
      StatisticsReport.text(statistics, leader: "ipc:///run/tandem/leader.control") == """
        leader    ipc:///run/tandem/leader.control
        epoch     0000000000000abc
        sequence  120
        backlog   20 deltas, from sequence 101
        counters
          actionsApplied   118
          deltasPublished  120
        followers (2)
          CLIENT         LAG  LAST SEEN
          web-1            0  12 ms ago
          web-2           75  40 ms ago
        """)
  }

  @Test func followersMissesAreListedWhenTheLeaderCountsThem() throws {
    let statistics = try decodeStatistics(
      #"{"epoch":"0000000000000abc","sequence":9,"backlogCount":0,"backlogOldest":0,"#
        + #""counters":{},"followers":["#
        + #"{"client":"stopped","lastSeenMillisecondsAgo":40,"lag":3,"catchUps":2,"missed":900},"#
        + #"{"client":"web-1","lastSeenMillisecondsAgo":12,"lag":0,"catchUps":0,"missed":0}]}"#)
    #expect(
      StatisticsReport.text(statistics, leader: "ipc:///l").hasSuffix(
        """
        followers (2)
          CLIENT          LAG      MISSED  LAST SEEN
          stopped           3         900  40 ms ago
          web-1             0           0  12 ms ago
        """))
  }

  @Test func onlyConnectedFollowersAreListedUnlessAllAreAskedFor() throws {
    let statistics = try decodeStatistics(
      #"{"epoch":"0000000000000abc","sequence":9,"backlogCount":0,"backlogOldest":0,"#
        + #""counters":{},"followers":["#
        + #"{"client":"watch","lastSeenMillisecondsAgo":1600,"lag":0},"#
        + #"{"client":"web-1","lastSeenMillisecondsAgo":12,"lag":0}],"#
        + #""clients":[{"client":"web-1","lastNumber":4,"lastSequence":9},"#
        + #"{"client":"tandem-cli-1","lastNumber":1,"lastSequence":3}],"clientCount":3}"#)
    let connected = StatisticsReport.selected(statistics, all: false)
    #expect(connected.followers.map(\.client) == ["web-1"])
    #expect(connected.clients == nil && connected.clientCount == nil)
    #expect(!StatisticsReport.json(connected).contains("clients"))
    let all = StatisticsReport.selected(statistics, all: true)
    #expect(all.followers.count == 2)
    #expect(
      StatisticsReport.text(all, leader: "tcp://h:1").hasSuffix(
        """
        clients (3 in the ledger, the 2 most recent shown)
          CLIENT         LAST NUMBER   LAST SEQUENCE
          web-1                    4               9
          tandem-cli-1             1               3
        """))
  }

  @Test func statisticsInJSONAreCanonical() throws {
    let json = StatisticsReport.json(statistics)
    #expect(json.hasPrefix(#"{"backlogCount":20,"backlogOldest":101,"counters":{"#))
    #expect(try JSONParser().parse(json).canonicalText == json)
  }

  @Test func laggardsAreThoseAboveTheMaximum() {
    #expect(StatisticsReport.laggards(statistics, maximum: 10).map(\.client) == ["web-2"])
    #expect(StatisticsReport.laggards(statistics, maximum: 75).isEmpty)
  }

  @Test func aSnapshotShowsThePathOrFailsWithNotFound() throws {
    let snapshot = Snapshot(
      epoch: epoch, sequence: 4, stateHash: 0, state: ["books": ["Dune"], "count": 1])
    #expect(try SnapshotReport.render(snapshot, path: "/books/0", json: true) == #""Dune""#)
    #expect(
      try SnapshotReport.render(snapshot, path: .root, json: true)
        == #"{"books":["Dune"],"count":1}"#)
    #expect {
      try SnapshotReport.render(snapshot, path: "/title", json: false)
    } throws: { error in
      (error as? CommandFailure)?.status == .notFound
    }
  }

  @Test func rawFramesAreTextOrHex() {
    #expect(RawFrames.frame("PING") == Array("PING".utf8))
    #expect(RawFrames.frame("x:00ff") == [0, 255])
    #expect(RawFrames.frame("x:") == [])
    #expect(RawFrames.frame("x:0") == nil)
    #expect(RawFrames.frame("x:zz") == nil)
    #expect(RawFrames.describe(Array("ERROR".utf8)) == "ERROR")
    #expect(RawFrames.describe([0, 0, 1]) == "x:000001")
    #expect(RawFrames.describe([]) == "x:")
  }
}

/// Statistics as `tandem stats` reads them from the leader's JSON `text`.
func decodeStatistics(_ text: String) throws -> LeaderStatistics {
  var decoder = StateDecoder()
  return try decoder.decode(LeaderStatistics.self, from: JSONParser().parse(text))
}

/// A follower's statistics at `sequence` of `epoch` (no public memberwise initializer either).
private func followerStatistics(epoch: String, sequence: UInt64) throws -> FollowerStatistics {
  let counters = [
    "deltasApplied", "gapsRepaired", "resyncs", "hashMismatches", "reconnects", "resends",
    "realignments", "sendsDeferred", "applyFailures", "malformedMessages", "unanswered",
  ]
  let members: [(key: String, value: JSONValue)] =
    [("epoch", .string(epoch)), ("sequence", .int(Int64(sequence)))]
    + counters.map { ($0, .int(0)) }
  var decoder = StateDecoder()
  return try decoder.decode(FollowerStatistics.self, from: .object(JSONObject(members)))
}
