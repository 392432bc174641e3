// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Tandem",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Tandem", targets: ["Tandem"]),
    .library(name: "StatePatch", targets: ["StatePatch"]),
    .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    .library(name: "TandemSync", targets: ["TandemSync"]),
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

    // SQLite through pkg-config; only TandemSync imports it (the leader's journal).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),

    // Leader, followers and the wire protocol between them.
    .target(name: "TandemSync", dependencies: ["Tandem", "StatePatch", "ZeroMQ", "CSQLite"]),

    // Argument parsing, subcommands with help, usage errors: shared by the executables.
    .target(name: "CommandLineKit"),

    // The operator CLI and the benchmarks (`tandem bench ...`).
    .executableTarget(
      name: "tandem",
      dependencies: ["Tandem", "StatePatch", "ZeroMQ", "TandemSync", "CommandLineKit"]
    ),

    .testTarget(name: "TandemTests", dependencies: ["Tandem"]),
    .testTarget(name: "StatePatchTests", dependencies: ["StatePatch"]),
    .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"]),
    .testTarget(name: "TandemSyncTests", dependencies: ["TandemSync"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
  ],
  swiftLanguageModes: [.v6]
)
