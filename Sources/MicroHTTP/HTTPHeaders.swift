/// An ordered list of HTTP header fields whose names are compared without regard to case.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("Link", "<https://example.com/?page=2>; rel=\"next\"")
/// headers["content-type"]  // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
  /// One header field as it was received or will be sent.
  public struct Field: Sendable, Equatable {
    /// The field name, spelled as given.
    public var name: String
    /// The field value.
    public var value: String
  }

  private var fields: [Field] = []

  /// No fields.
  public init() {}

  /// The given fields, in order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The value of the first field called `name` (any case); setting replaces every such field.
  public subscript(name: String) -> String? {
    get { fields.first { Self.same($0.name, name) }?.value }
    set {
      fields.removeAll { Self.same($0.name, name) }
      if let newValue { fields.append(Field(name: name, value: newValue)) }
    }
  }

  /// Every value of the fields called `name` (any case), in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.same($0.name, name) }.map(\.value)
  }

  /// Appends a field, keeping any others of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// The number of fields.
  public var count: Int { fields.count }

  /// Iterates over the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }

  private static func same(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
  }
}
