import CounterExample
import Foundation
import GitHubBrowser
import Tandem
import Testing

/// The example payloads the protocol specification gives for the example services' actions
/// (its "Example payloads" table) decode through the services' registries, and every
/// registered tag has one, so an implementer in another language can rely on them.
@Suite("The protocol's example payloads")
struct ProtocolExamplePayloadTests {
  /// The rows of the specification's example payload table: tag and payload.
  static func examples() throws -> [(tag: String, payload: String)] {
    let specification = URL(filePath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: "Sources/TandemProtocol/TandemProtocol.docc/Protocol.md")
    let text = try String(contentsOf: specification, encoding: .utf8)
    let section = try #require(
      text.components(separatedBy: "### Example payloads").dropFirst().first)
    var rows: [(String, String)] = []
    for line in section.split(separator: "\n") {
      if line.hasPrefix("#") { break }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 4, cells[1].hasPrefix("`"), cells[2].hasPrefix("`") else { continue }
      rows.append(
        (String(cells[1].dropFirst().dropLast()), String(cells[2].dropFirst().dropLast())))
    }
    return rows
  }

  @Test(arguments: [("counter", counterRegistry), ("GitHub browser", browserRegistry)])
  func everyActionOfTheExampleServicesHasAnExampleThatDecodes(
    service: String, registry: ActionRegistry
  ) throws {
    let examples = try Self.examples()
    #expect(!registry.tags.isEmpty)
    for tag in registry.tags {
      let example = try #require(
        examples.first { $0.tag == tag }, "\(service): no example for \(tag)")
      #expect(throws: Never.self, "\(tag): \(example.payload)") {
        _ = try registry.decode(tag: tag, payload: Array(example.payload.utf8))
      }
    }
  }
}
