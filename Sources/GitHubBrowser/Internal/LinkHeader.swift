#if canImport(FoundationNetworking)
  import Foundation
#else
  import Foundation
#endif

/// Parses a `Link` header (RFC 8288) such as
/// `<https://api.github.com/user/repos?page=2>; rel="next", <...?page=5>; rel="last"`
/// into the page numbers of each relation.
enum LinkHeader {
  /// The `page` query parameter of each `rel`, for the links that have one.
  static func pages(_ value: String) -> [String: Int] {
    var result: [String: Int] = [:]
    for link in value.split(separator: ",") {
      let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">"),
        let components = URLComponents(string: String(target.dropFirst().dropLast())),
        let page = components.queryItems?.first(where: { $0.name == "page" })?.value.flatMap({
          Int($0)
        })
      else { continue }
      for parameter in parts.dropFirst() where parameter.hasPrefix("rel=") {
        let relations = parameter.dropFirst(4).trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
        for relation in relations.split(separator: " ") { result[String(relation)] = page }
      }
    }
    return result
  }
}
