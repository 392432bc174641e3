// swift-tools-version: 6.0
import PackageDescription

/// Release builds optimize across module boundaries: the protocol's rules, the codec and the
/// ledger live in modules of their own but run on the path of every action, where the leader
/// and the followers need them specialized and inlined as if they were one module.
let crossModule: [SwiftSetting] = [
  .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

let package = Package(
  name: "Tandem",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Tandem", targets: ["Tandem"]),
    .library(name: "StatePatch", targets: ["StatePatch"]),
    .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    .library(name: "TandemProtocol", targets: ["TandemProtocol"]),
    .library(name: "TandemJournal", targets: ["TandemJournal"]),
    .library(name: "TandemSync", targets: ["TandemSync"]),
    .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
    .library(name: "TandemMetrics", targets: ["TandemMetrics"]),
    .library(name: "GitHubBrowser", targets: ["GitHubBrowser"]),
    .executable(name: "github-browser", targets: ["github-browser"]),
    .executable(name: "tandem", targets: ["tandem"]),
    .executable(name: "counter", targets: ["counter"]),
  ],
  targets: [
    // The store: ReSwift's API, thread-safe, in Swift 6.
    .target(name: "Tandem", swiftSettings: crossModule),

    // Canonical JSON, RFC 6901 pointers, RFC 6902 patches and typed-state diffs.
    .target(name: "StatePatch", swiftSettings: crossModule),

    // libzmq (`zmq.h` from the system include path, linked as `-lzmq` by the module map); only
    // the ZeroMQ module imports it. No `pkgConfig:`: libzmq's pkg-config flags carry `-isystem`,
    // which SwiftPM rejects with a warning on every build.
    .systemLibrary(
      name: "CZeroMQ",
      providers: [.apt(["libzmq3-dev"])]
    ),
    .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: crossModule),
    // Raw libzmq from C: the baseline `tandem bench zmq` measures the wrapper against.
    .target(
      name: "CZeroMQBaseline", dependencies: ["CZeroMQ"],
      linkerSettings: [.linkedLibrary("zmq")]
    ),

    // SQLite through pkg-config; only TandemJournal imports it (the leader's journal).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),

    // libpq through pkg-config; only TandemJournal imports it (the shared PostgreSQL journal
    // and its leadership lease).
    .systemLibrary(
      name: "CPostgres",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]
    ),

    // The protocol without I/O: the wire codec, the client ledger and the rules of exactly-once
    // dispatch and replica sync, as values that take inputs and return effects.
    .target(
      name: "TandemProtocol", dependencies: ["Tandem", "StatePatch"], swiftSettings: crossModule),

    // A deterministic simulator of a leader and followers over a simulated network with faults,
    // checking the protocol's invariants; no I/O.
    .target(name: "TandemSimulation", dependencies: ["Tandem", "StatePatch", "TandemProtocol"]),

    // A SIGBUS handler that turns a refused write to SQLite's mapped shared-memory index into an
    // error the journal reports, instead of a crash inside SQLite.
    .target(name: "CSharedMemoryGuard"),

    // The leader's journal of deltas, snapshots and the client ledger, in SQLite or PostgreSQL,
    // and the leadership lease; the only importer of CSQLite and CPostgres.
    .target(
      name: "TandemJournal",
      dependencies: ["TandemProtocol", "StatePatch", "CSQLite", "CPostgres", "CSharedMemoryGuard"],
      swiftSettings: crossModule),

    // Leader and followers: the shells that own the sockets, timers and journal.
    .target(
      name: "TandemSync",
      dependencies: ["Tandem", "StatePatch", "TandemProtocol", "TandemJournal", "ZeroMQ"],
      swiftSettings: crossModule
    ),

    // Argument parsing, subcommands with help, usage errors: shared by the executables.
    .target(name: "CommandLineKit"),

    // The operator CLI and the benchmarks (`tandem bench ...`).
    .executableTarget(
      name: "tandem",
      dependencies: [
        "Tandem", "StatePatch", "ZeroMQ", "TandemProtocol", "TandemJournal", "TandemSync",
        "CommandLineKit", "CZeroMQBaseline", "TandemCLI", "CProcessControl", "TandemMetrics",
        "TandemSimulation", "PostgresTestSupport",
      ]
    ),
    // prctl(2) for the helper processes of `tandem bench` (Swift cannot call it: it is variadic).
    .systemLibrary(name: "CProcessControl"),

    // What the operator CLI's commands do, apart from their wiring: options, requests, output.
    .target(
      name: "TandemCLI",
      dependencies: ["StatePatch", "ZeroMQ", "TandemProtocol", "TandemSync", "CommandLineKit"]
    ),

    // ReSwift's CounterExample across processes: the state, actions and reducer, and the
    // `counter leader` / `counter follower` executable.
    .target(name: "CounterExample", dependencies: ["Tandem", "StatePatch", "TandemSync"]),
    .executableTarget(
      name: "counter",
      dependencies: [
        "CounterExample", "Tandem", "StatePatch", "TandemJournal", "TandemSync", "CommandLineKit",
        "TandemMetrics", "TandemProtocol",
      ]
    ),

    // libmicrohttpd through pkg-config; only the MicroHTTP module imports it.
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]
    ),
    // A small HTTP server with routing and Server-Sent Events over libmicrohttpd.
    .target(name: "MicroHTTP", dependencies: ["CMicroHTTPD"]),
    // Serves metrics registries (a leader's, a follower's, an application's) at /metrics.
    .target(name: "TandemMetrics", dependencies: ["TandemSync", "MicroHTTP"]),

    // The GitHub browser example: shared state, reducers, the REST client, the fixture API.
    .target(
      name: "GitHubBrowser", dependencies: ["MicroHTTP", "Tandem", "TandemProtocol", "TandemSync"]
    ),
    .executableTarget(
      name: "github-browser",
      dependencies: [
        "GitHubBrowser", "MicroHTTP", "CommandLineKit", "Tandem", "TandemJournal", "TandemSync",
        "TandemMetrics", "TandemProtocol",
      ]
    ),

    .testTarget(name: "TandemTests", dependencies: ["Tandem"]),
    .testTarget(name: "StatePatchTests", dependencies: ["StatePatch"]),
    .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"]),
    .testTarget(name: "TandemProtocolTests", dependencies: ["TandemProtocol"]),
    .testTarget(name: "TandemSimulationTests", dependencies: ["TandemSimulation"]),
    .testTarget(
      name: "TandemSyncTests",
      dependencies: [
        "TandemProtocol", "TandemJournal", "TandemSync", "CounterVersions", "PostgresTestSupport",
      ]
    ),
    // Versions of a counter's state and actions, for the schema-evolution tests and for
    // `rolling-upgrade-helper`, the processes of scripts/checks/rolling-upgrade.
    .target(name: "CounterVersions", dependencies: ["Tandem"], path: "Tests/CounterVersions"),
    .executableTarget(
      name: "rolling-upgrade-helper",
      dependencies: ["CounterVersions", "Tandem", "TandemSync", "CommandLineKit"],
      path: "Tests/RollingUpgradeHelper"
    ),
    // A private PostgreSQL cluster per test run, a database per test: for the tests of the
    // PostgreSQL journal and lease, here and in other test targets.
    .target(
      name: "PostgresTestSupport", dependencies: ["TandemJournal"],
      path: "Tests/PostgresTestSupport"),
    .testTarget(
      name: "PostgresJournalTests",
      dependencies: ["PostgresTestSupport", "TandemJournal", "TandemProtocol"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
    // A stand-in for swift-log's `Logging` module (SwiftPM cannot fetch packages here), and
    // tests that it and TandemSync are imported together and bridged.
    .testTarget(name: "Logging", path: "Tests/LoggingStandIn"),
    .testTarget(
      name: "LoggingBridgeTests",
      dependencies: ["Logging", "TandemProtocol", "TandemSync", "Tandem", "ZeroMQ"]),
    // The `tandem` executable run as a process (it is built beside the tests).
    .testTarget(name: "tandemTests"),
    .testTarget(
      name: "TandemCLITests",
      dependencies: [
        "TandemCLI", "Tandem", "StatePatch", "TandemProtocol", "TandemSync", "CommandLineKit",
        "TandemJournal", "PostgresTestSupport",
      ]
    ),
    .testTarget(
      name: "CounterExampleTests", dependencies: ["CounterExample", "Tandem", "TandemSync"]
    ),
    .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP"]),
    .testTarget(
      name: "TandemMetricsTests", dependencies: ["TandemMetrics", "TandemSync", "Tandem"]),
    .testTarget(
      name: "GitHubBrowserTests",
      dependencies: ["GitHubBrowser", "MicroHTTP", "Tandem", "TandemSync", "CounterExample"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
