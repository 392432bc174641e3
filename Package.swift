// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Tandem",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Tandem", targets: ["Tandem"]),
    .library(name: "StatePatch", targets: ["StatePatch"]),
    .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
    .library(name: "GitHubBrowser", targets: ["GitHubBrowser"]),
    .executable(name: "github-browser", targets: ["github-browser"]),
    .executable(name: "tandem", targets: ["tandem"]),
  ],
  targets: [
    // The store: ReSwift's API, thread-safe, in Swift 6.
    .target(name: "Tandem"),

    // Canonical JSON, RFC 6901 pointers, RFC 6902 patches and typed-state diffs.
    .target(name: "StatePatch"),

    // libzmq through pkg-config; only the ZeroMQ module imports it.
    .systemLibrary(
      name: "CZeroMQ",
      pkgConfig: "libzmq",
      providers: [.apt(["libzmq3-dev"])]
    ),
    .target(name: "ZeroMQ", dependencies: ["CZeroMQ"]),

    // Argument parsing, subcommands with help, usage errors: shared by the executables.
    .target(name: "CommandLineKit"),

    // The operator CLI and the benchmarks (`tandem bench ...`).
    .executableTarget(
      name: "tandem",
      dependencies: ["Tandem", "StatePatch", "ZeroMQ", "CommandLineKit"]
    ),

    // libmicrohttpd through pkg-config; only the MicroHTTP module imports it.
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]
    ),
    // A small HTTP server with routing and Server-Sent Events over libmicrohttpd.
    .target(name: "MicroHTTP", dependencies: ["CMicroHTTPD"]),

    // The GitHub browser example: shared state, reducers, the REST client, the fixture API.
    .target(name: "GitHubBrowser", dependencies: ["MicroHTTP"]),
    .executableTarget(
      name: "github-browser",
      dependencies: ["GitHubBrowser", "MicroHTTP", "CommandLineKit"]
    ),

    .testTarget(name: "TandemTests", dependencies: ["Tandem"]),
    .testTarget(name: "StatePatchTests", dependencies: ["StatePatch"]),
    .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
    .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP"]),
    .testTarget(name: "GitHubBrowserTests", dependencies: ["GitHubBrowser"]),
  ],
  swiftLanguageModes: [.v6]
)
