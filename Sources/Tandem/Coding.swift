/// ReSwift's protocol for values that convert to and from a dictionary, kept so ReSwift code
/// that conforms to it ports unchanged.
///
/// Tandem itself never calls it: values that cross a process boundary (actions, states) are
/// `Codable` and travel as JSON (see ``ActionRegistry``).
public protocol Coding {
  /// Creates a value from its dictionary form; `nil` when the dictionary does not describe one.
  init?(dictionary: [String: AnyObject])

  /// The value's dictionary form.
  var dictionary: [String: AnyObject] { get }
}
