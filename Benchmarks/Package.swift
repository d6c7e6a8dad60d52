// swift-tools-version:6.1
import PackageDescription

// Tandem's benchmarks and harnesses (issue 26 item 3), a package of their own beside the product:
// it depends on the root package by path, so a `swift build` at the root compiles none of this.
// - `tandem-bench`: figures against a baseline measured in the same run (BENCHMARKS.md), and the
//   load and stream harnesses (RELIABILITY.md);
// - `tandem-crash`: the crash-consistency harness (issue 14 item 4);
// - `BenchSupport`: what both share, among it the one helper that starts a server child.
// Build with `swift build --package-path Benchmarks -c release`; scripts/ point here.

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The raw libsecp256k1 baseline of the crypto figures: Debian's library through the root
// package on Linux, the SwiftPM build of it on Apple platforms (docs/ARCHITECTURE.md).
#if canImport(Darwin)
    let cryptoPackages: [Package.Dependency] = [
        .package(url: "https://github.com/21-DOT-DEV/swift-secp256k1", exact: "0.23.2")
    ]
    let secp256k1: Target.Dependency = .product(name: "libsecp256k1", package: "swift-secp256k1")
#else
    let cryptoPackages: [Package.Dependency] = []
    let secp256k1: Target.Dependency = .product(name: "CSecp256k1", package: "Tandem")
#endif

func tandem(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "Tandem") }
}

/// A package-benchmark executable in `Benchmarks/NAME`, registering one suite.
func benchmark(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "MicroBenchmarks", "SuiteRegistration", .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(name)",
        swiftSettings: swiftSettings,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "TandemBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Tandem", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        // The micro benchmarks' second driver (package-benchmark), with no trait: its default
        // RuntimeInterposer needs a package outside the offline set here, and with its
        // MallocInterposer (LD_PRELOAD) our benchmark processes died with SIGSEGV under its tool
        // on Swift 6.3.1 (ordo-one/benchmark#349 is that release's known runtime-hook crash). So
        // wall time, CPU and throughput, and no allocation counts.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: []),
    ] + cryptoPackages,
    targets: [
        .target(
            name: "BenchSupport",
            dependencies: tandem(
                "KasiaProtocol", "KaspaCrypto", "TandemAPI", "TandemBasics", "RedoProtocol", "TaskStore"),
            swiftSettings: swiftSettings
        ),
        // The micro benchmarks: each a suite of cases against a same-run baseline (BenchSuite),
        // measured interleaved by `tandem-bench` and registered with package-benchmark below.
        .target(
            name: "MicroBenchmarks",
            dependencies: [secp256k1]
                + tandem(
                    "KaspaCrypto", "KasiaProtocol", "KaspaTransaction", "KaspaRPC", "TandemClient", "TandemTesting",
                    "TaskStore", "RedoProtocol", "RedoApp", "CanonicalJSON", "RoutingStore", "TandemBasics")
                + [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SuiteRegistration",
            dependencies: ["MicroBenchmarks", .product(name: "Benchmark", package: "benchmark")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "tandem-bench",
            dependencies: ["BenchSupport", "MicroBenchmarks", secp256k1]
                + tandem(
                    "KaspaCrypto", "KaspaTransaction", "KasiaProtocol", "CanonicalJSON", "RedoProtocol", "ChatTimeline",
                    "ChatHistory", "TaskStore", "RoutingStore", "Contacts", "TandemAPI", "TandemClient", "TandemServer",
                    "TandemServerStore", "TandemTesting", "CommandLineContract", "ChatScreen", "TandemNIOTransport",
                    "KaspaRPC", "KaspaNode", "KaspaSimNode", "TandemBasics")
                + [
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    .product(name: "Crypto", package: "swift-crypto"),
                    .product(name: "GRDB", package: "GRDB.swift"),
                    .product(name: "Hummingbird", package: "hummingbird"),
                    .product(name: "HTTPTypes", package: "swift-http-types"),
                    .product(name: "Logging", package: "swift-log"),
                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    .product(name: "AsyncHTTPClient", package: "async-http-client"),
                    .product(name: "NIOCore", package: "swift-nio"),
                    .product(name: "NIOHTTP1", package: "swift-nio"),
                    .product(name: "WSClient", package: "swift-websocket"),
                ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "tandem-crash",
            dependencies: ["BenchSupport"]
                + tandem(
                    "CanonicalJSON", "KasiaProtocol", "RedoProtocol", "TandemAPI", "TandemBasics", "TandemTesting",
                    "CommandLineContract", "TaskStore", "Contacts", "RoutingStore", "ChatHistory", "TandemClient")
                + [
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    .product(name: "AsyncHTTPClient", package: "async-http-client"),
                    .product(name: "GRDB", package: "GRDB.swift"),
                    .product(name: "NIOCore", package: "swift-nio"),
                    .product(name: "NIOHTTP1", package: "swift-nio"),
                ],
            swiftSettings: swiftSettings
        ),
        // package-benchmark targets (`swift package benchmark`), one per suite.
        benchmark("KasiaCrypto"),
        benchmark("KaspaTransactions"),
        benchmark("Wallet"),
        benchmark("TaskCommands"),
        benchmark("Redo"),
        benchmark("Kasia"),
        benchmark("TaskApp"),
        // The harnesses' own checks: each tool run as a child process with small sizes.
        .testTarget(
            name: "BenchHarnessTests",
            dependencies: tandem("CanonicalJSON", "RedoProtocol", "TandemAPI") + [
                .product(name: "Subprocess", package: "swift-subprocess")
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
