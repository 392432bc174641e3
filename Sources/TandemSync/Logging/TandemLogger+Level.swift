extension TandemLogger {
  /// How severe a line is, from ``trace`` to ``critical``: swift-log's seven levels, with the
  /// same raw values, so a bridge maps them one to one.
  public enum Level: String, Sendable, Codable, CaseIterable, Comparable {
    case trace, debug, info, notice, warning, error, critical

    /// The level named by `text` (`trace` ... `critical`, in any case), if any.
    public init?(_ text: String) {
      self.init(rawValue: text.lowercased())
    }

    private var severity: Int {
      switch self {
      case .trace: 0
      case .debug: 1
      case .info: 2
      case .notice: 3
      case .warning: 4
      case .error: 5
      case .critical: 6
      }
    }

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.severity < rhs.severity }
  }
}
