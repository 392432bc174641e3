import CommandLineKit
import Foundation
import GitHubBrowser

/// An `http(s)` URL with a host from option `name`, or a usage error saying what is wanted.
func httpURL(_ text: String, _ name: String) throws -> URL {
  guard let url = URL(string: text), ["http", "https"].contains(url.scheme),
    url.host?.isEmpty == false
  else {
    throw UsageError("\(name) takes an http(s) URL with a host, not '\(text)'")
  }
  return url
}

/// The store of sign-ins in the state directory `directory` (its `sign-ins` folder).
func signInStore(in directory: String) throws -> CredentialStore {
  do {
    return try CredentialStore(
      directory: URL(fileURLWithPath: directory).appendingPathComponent("sign-ins"))
  } catch {
    throw CommandFailure(.ioError, error.description)
  }
}
