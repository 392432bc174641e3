/// The Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE` lines, then one
/// line per sample, with label values and help text escaped as the format requires.
public enum MetricsExposition {
  /// The `Content-Type` of the format.
  public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// The text of `families`, in order; a name given twice is an error of the caller.
  public static func text(_ families: [MetricFamily]) -> String {
    var out = ""
    for family in families {
      out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
      out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
      for sample in family.samples {
        out += family.name + sample.suffix
        if !sample.labels.isEmpty {
          out += "{"
          out += sample.labels.map { "\($0.name)=\"\(escapeLabel($0.value))\"" }
            .joined(separator: ",")
          out += "}"
        }
        out += " " + number(sample.value) + "\n"
      }
    }
    return out
  }

  /// `value` as the format spells it: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`.
  public static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// Help text with `\` and newlines escaped.
  static func escapeHelp(_ text: String) -> String { escape(text, quotes: false) }

  /// A label value with `\`, `"` and newlines escaped.
  static func escapeLabel(_ text: String) -> String { escape(text, quotes: true) }

  private static func escape(_ text: String, quotes: Bool) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\"" where quotes: out += "\\\""
      default: out.append(character)
      }
    }
    return out
  }
}
