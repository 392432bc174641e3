import Foundation
import StatePatch

/// `tandem bench json`: StatePatch's parser and canonical serializer on a ~1 MB document, beside
/// Foundation's `JSONSerialization` on the same bytes, and the cost of a one-operation patch.
let jsonBenchmark = Command(
  name: "json",
  summary: "JSON parse/serialize MB/s vs JSONSerialization, and one-operation patch time",
  usage: "[--runs N] [--records N]\n\n"
    + "  --runs N     timed runs per figure, median reported (default 7)\n"
    + "  --records N  records in the document (default 6600, about 1 MB)",
  run: { words in
    var arguments = try CommandLineArguments(words)
    let runs = try arguments.integer("runs", default: 7, in: 1...1000)
    let records = try arguments.integer("records", default: 6600, in: 1...10_000_000)
    try arguments.finish()
    try JSONBenchmark(runs: runs, records: records).run()
  }
)

/// The workloads of `tandem bench json`.
struct JSONBenchmark {
  var runs: Int
  var records: Int

  func run() throws {
    let document = Self.document(records: records)
    let bytes = document.canonicalBytes()
    let data = Data(bytes)
    let megabytes = Double(bytes.count) / 1_000_000
    let clock = BenchmarkClock(runs: runs)
    print("document: \(BenchmarkTable.format(Double(bytes.count))) bytes, \(records) records")

    // Parse the same bytes with each parser.
    var parsed = JSONValue.null
    let ours = try clock.seconds { parsed = try JSONValue(parsing: bytes) }
    precondition(parsed == document, "the parsed document differs from the original")
    var foundationObject: Any = NSNull()
    let theirs = try clock.seconds {
      foundationObject = try JSONSerialization.jsonObject(with: data, options: [])
    }

    // Serialize: canonical bytes against JSONSerialization with sorted keys.
    var written: [UInt8] = []
    let oursWrite = clock.seconds { written = parsed.canonicalBytes() }
    precondition(written == bytes, "serialization is not stable")
    var theirData = Data()
    let theirsWrite = try clock.seconds {
      theirData = try JSONSerialization.data(
        withJSONObject: foundationObject, options: [.sortedKeys])
    }

    var table = BenchmarkTable(
      title: "json: \(BenchmarkTable.format(megabytes, decimals: 2)) MB document",
      columns: ["workload", "StatePatch MB/s", "JSONSerialization MB/s", "ratio"])
    table.add(row("parse", megabytes / ours.median, megabytes / theirs.median))
    table.add(row("serialize", megabytes / oursWrite.median, megabytes / theirsWrite.median))
    table.print()
    print(
      "(JSONSerialization wrote \(BenchmarkTable.format(Double(theirData.count))) bytes with sorted keys)"
    )

    try patchFigures(document: parsed)
  }

  /// Time to apply a one-operation patch to a leaf in the middle of the document.
  private func patchFigures(document: JSONValue) throws {
    var owned = document
    let middle = records / 2
    let patches = [
      JSONPatch([
        .replace(path: JSONPointer(tokens: ["records", String(middle), "score"]), value: 1.5)
      ]),
      JSONPatch([
        .replace(path: JSONPointer(tokens: ["records", String(middle), "score"]), value: 2.5)
      ]),
    ]
    let repetitions = 10_000
    let clock = BenchmarkClock(runs: runs)
    let inPlace = try clock.seconds {
      for index in 0..<repetitions { try patches[index & 1].apply(to: &owned) }
    }
    let copying = try clock.seconds {
      for index in 0..<100 { _ = try patches[index & 1].applied(to: document) }
    }
    var table = BenchmarkTable(
      title: "json: one-operation patch (replace /records/\(middle)/score)",
      columns: ["workload", "µs per patch"])
    table.add([
      "apply(to:) in place, document owned",
      BenchmarkTable.format(inPlace.median / Double(repetitions) * 1e6, decimals: 3),
    ])
    table.add([
      "applied(to:), document shared (copies the path)",
      BenchmarkTable.format(copying.median / 100 * 1e6, decimals: 3),
    ])
    table.print()
  }

  private func row(_ name: String, _ ours: Double, _ theirs: Double) -> [String] {
    [
      name, BenchmarkTable.format(ours, decimals: 1), BenchmarkTable.format(theirs, decimals: 1),
      BenchmarkTable.format(ours / theirs, decimals: 2) + "x",
    ]
  }

  /// A deterministic document of `records` records mixing every kind of value.
  static func document(records: Int) -> JSONValue {
    let words = [
      "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "café", "naïve",
    ]
    var state: UInt64 = 0x1234_5678
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let list: [JSONValue] = (0..<records).map { index in
      let tags: [JSONValue] = (0..<Int(next() % 4)).map { _ in .string(words[Int(next() % 10)]) }
      let record = JSONObject([
        (key: "id", value: .int(Int64(index))),
        (key: "name", value: .string("\(words[index % 10]) \(index) \"quoted\"\n")),
        (key: "score", value: .double(Double(next() % 100_000) / 7)),
        (key: "active", value: .bool(next() % 2 == 0)),
        (key: "tags", value: .array(tags)),
        (
          key: "position",
          value: .object(
            JSONObject([
              (key: "x", value: .int(Int64(next() % 2000) - 1000)),
              (key: "y", value: .double(Double(next() % 1000) / 8)),
              (key: "label", value: index % 3 == 0 ? .null : .string("p\(index)")),
            ]))
        ),
      ])
      return .object(record)
    }
    return .object(
      JSONObject([(key: "records", value: .array(list)), (key: "version", value: .int(1))]))
  }
}
