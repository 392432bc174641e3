/// Prints benchmark figures as an aligned table, one row per measurement.
///
/// ```swift
/// var table = BenchmarkTable(title: "store", columns: ["workload", "actions/s"])
/// table.add(["(a) counter", BenchmarkTable.format(1_234_567)])
/// table.print()
/// ```
struct BenchmarkTable {
  var title: String
  var columns: [String]
  private(set) var rows: [[String]] = []

  init(title: String, columns: [String]) {
    self.title = title
    self.columns = columns
  }

  mutating func add(_ row: [String]) {
    precondition(row.count == columns.count, "a row needs \(columns.count) cells")
    rows.append(row)
  }

  /// The table as text: a title line, a header, then the rows, columns padded to fit.
  var text: String {
    let all = [columns] + rows
    let widths = columns.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    let lines = all.map { row in
      zip(row, widths).enumerated().map { index, cell in
        let (value, width) = cell
        let padding = String(repeating: " ", count: width - value.count)
        return index == 0 ? value + padding : padding + value
      }.joined(separator: "  ")
    }
    return "== \(title)\n" + lines.joined(separator: "\n")
  }

  func print() {
    Swift.print(text)
  }

  /// A number with thousands separators and at most `decimals` decimals: `1,234,567`, `3.14`.
  static func format(_ value: Double, decimals: Int = 0) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    var digits = String(whole)
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + digits.suffix(3) + grouped
      digits.removeLast(3)
    }
    grouped = digits + grouped
    if decimals > 0 {
      let fraction = Int(scaled) - whole * Int(scale)
      let fractionText = String(fraction)
      grouped += "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
    }
    return (value < 0 ? "-" : "") + grouped
  }
}
