#if os(Linux)
  import Foundation
  import Testing

  /// `tandem bench failover` run as a process with tiny parameters (one kill, a short lease):
  /// the figures it prints parse, and its exactly-once check holds. It starts a private
  /// PostgreSQL cluster, as the PostgreSQL journal's tests do (root and `scripts/bootstrap`).
  @Suite("tandem bench failover", .serialized)
  struct FailoverBenchmarkTests {
    @Test func oneKillIsTimedAndEveryAcknowledgedActionIsAppliedOnce() async throws {
      let temporary = NSTemporaryDirectory() + "tandem-bench-test-" + UUID().uuidString
      try FileManager.default.createDirectory(
        atPath: temporary, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: temporary) }
      let (outputPath, errorPath) = (temporary + "/output", temporary + "/error")
      let bench = try startTandem(
        ["bench", "failover", "--kills", "1", "--lease-ms", "600"], temporaryDirectory: temporary,
        output: outputPath, error: errorPath)
      let ending = await poll(for: .seconds(120)) { () -> Int32? in
        var status: Int32 = 0
        return waitpid(bench, &status, WNOHANG) == bench ? status : nil
      }
      if ending == nil { end(bench) }
      let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
      // A wait status: exited with status 0.
      try #require(
        ending == 0,
        "tandem bench failover ended with \(String(describing: ending)):\n\(output)\n\(error)")

      let report = try FailoverReport(output)
      #expect(report.kills.count == 1)
      #expect(report.kills.first?.victim == "a1" || report.kills.first?.victim == "b1")
      #expect(report.kills.first?.successor != report.kills.first?.victim)
      #expect(report.figure("kills") == 1)
      let seconds = try #require(report.kills.first?.seconds)
      // One kill: every percentile is its time (as printed, to the millisecond).
      for measure in ["failover p50 (s)", "failover p99 (s)", "failover max (s)"] {
        #expect(report.figure(measure) == seconds, "\(measure)")
      }
      #expect(seconds > 0 && seconds < 30)
      #expect((report.figure("actions acknowledged") ?? 0) > 0)
      #expect(report.figure("receipts failed") == 0)
      #expect(report.cell("exactly once") == "yes")
      let acknowledged = Int(report.figure("actions acknowledged") ?? -1)
      #expect(
        report.exactlyOnce
          == "sent \(acknowledged), acknowledged \(acknowledged), failed 0; the leader's state:"
          + " applied \(acknowledged), applied twice 0, skipped 0, terms 2; the sender's replica"
          + " equals it")
    }
  }

  /// What `tandem bench failover` printed: a line per kill, the table, the exactly-once line.
  struct FailoverReport {
    /// `kill N: VICTIM killed, SUCCESSOR took over; first acknowledgement after S s`.
    struct Kill: Equatable {
      var victim: String
      var successor: String
      var seconds: Double
    }

    var kills: [Kill] = []
    /// The table's rows: the measure, then the figure (and the target, if any).
    var rows: [String: String] = [:]
    /// What follows `exactly once: `.
    var exactlyOnce: String?

    init(_ output: String) throws {
      var inTable = false
      for line in output.split(separator: "\n").map(String.init) {
        if line.hasPrefix("kill "), let colon = line.firstIndex(of: ":") {
          let words = line[line.index(after: colon)...].split(separator: " ")
          // VICTIM killed, SUCCESSOR took over; first acknowledgement after S s
          try #require(words.count == 10 && words[1] == "killed," && words.last == "s", "\(line)")
          kills.append(
            Kill(
              victim: String(words[0]), successor: String(words[2]),
              seconds: try #require(Double(words[8]), "\(line)")))
        } else if line == "== failover" {
          inTable = true
        } else if line.hasPrefix("exactly once: ") {
          exactlyOnce = String(line.dropFirst("exactly once: ".count))
          inTable = false
        } else if inTable, !line.hasPrefix("measure ") {
          // Cells are separated by two spaces or more; a measure holds single spaces only.
          let cells = line.components(separatedBy: "  ").map {
            $0.trimmingCharacters(in: .whitespaces)
          }.filter { !$0.isEmpty }
          try #require(cells.count >= 2, "a table row without a figure: \(line)")
          rows[cells[0]] = cells[1]
        }
      }
    }

    func cell(_ measure: String) -> String? { rows[measure] }

    /// The figure of `measure` as a number (thousands separators dropped).
    func figure(_ measure: String) -> Double? {
      rows[measure].flatMap { Double($0.replacingOccurrences(of: ",", with: "")) }
    }
  }
#endif
