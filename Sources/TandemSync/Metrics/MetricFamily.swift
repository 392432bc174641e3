/// One metric of the Prometheus text exposition format: a name, its help line, its type, and
/// its samples (one per label set; a histogram's `_bucket`, `_sum` and `_count` series).
public struct MetricFamily: Sendable, Equatable {
  /// The kind of a metric, as its `# TYPE` line names it.
  public enum Kind: String, Sendable, Equatable {
    case counter, gauge, histogram
  }

  /// One sample: the series' name suffix (`_bucket`, `_sum`, `_count`, or none), its labels
  /// in order, and its value.
  public struct Sample: Sendable, Equatable {
    public var suffix: String
    public var labels: [(name: String, value: String)]
    public var value: Double

    public init(suffix: String = "", labels: [(name: String, value: String)] = [], value: Double) {
      self.suffix = suffix
      self.labels = labels
      self.value = value
    }

    public static func == (lhs: Sample, rhs: Sample) -> Bool {
      lhs.suffix == rhs.suffix && lhs.value == rhs.value
        && lhs.labels.map(\.name) == rhs.labels.map(\.name)
        && lhs.labels.map(\.value) == rhs.labels.map(\.value)
    }
  }

  /// The metric's name, by Prometheus conventions: `snake_case`, a unit suffix in base units
  /// (`_seconds`, `_bytes`), `_total` for a counter.
  public var name: String
  public var help: String
  public var kind: Kind
  public var samples: [Sample]

  public init(name: String, help: String, kind: Kind, samples: [Sample]) {
    precondition(Self.isValidName(name), "Tandem: '\(name)' is not a Prometheus metric name")
    self.name = name
    self.help = help
    self.kind = kind
    self.samples = samples
  }

  /// A gauge or counter with one sample per label set.
  public static func values(
    _ name: String, help: String, kind: Kind, _ values: [([(String, String)], Double)]
  ) -> MetricFamily {
    MetricFamily(
      name: name, help: help, kind: kind,
      samples: values.map { labels, value in
        Sample(labels: labels.map { (name: $0.0, value: $0.1) }, value: value)
      })
  }

  /// A gauge or counter of one unlabelled sample.
  public static func value(
    _ name: String, help: String, kind: Kind, _ value: Double
  ) -> MetricFamily {
    values(name, help: help, kind: kind, [([], value)])
  }

  /// Whether `name` matches `[a-zA-Z_:][a-zA-Z0-9_:]*`.
  static func isValidName(_ name: String) -> Bool {
    guard let first = name.utf8.first, !(48...57).contains(first) else { return false }
    return name.utf8.allSatisfy { byte in
      (97...122).contains(byte) || (65...90).contains(byte) || (48...57).contains(byte)
        || byte == 95 || byte == 58
    }
  }
}
