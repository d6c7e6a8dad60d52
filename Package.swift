// swift-tools-version:6.1
import PackageDescription

// The module map — layers, what each module owns, the rules of its edges — is the table in
// docs/ARCHITECTURE.md; ArchitectureMapTests holds this manifest to it.

// Fuzzing (issue 14 item 1): with TANDEM_FUZZ=1 (`scripts/fuzz`), this package's own modules are
// compiled with libFuzzer's coverage and AddressSanitizer. Dependencies keep their usual flags, so
// a fuzz build reuses their objects from a normal build of the same configuration.
let fuzzing = Context.environment["TANDEM_FUZZ"] == "1"

let swiftSettings: [SwiftSetting] =
    [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ] + (fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-enable-testing"])] : [])

// The two C crypto libraries (docs/ARCHITECTURE.md "Apple platforms"). On Linux they are Debian's,
// found through pkg-config. Apple platforms have no pkg-config and no such system libraries, so
// there SwiftPM packages build the C from source; a Linux resolve never names those packages
// (these machines resolve only an offline package set). The Apple branch is not built here:
// unverified until a macOS machine builds it.
#if canImport(Darwin)
    let cryptoPackages: [Package.Dependency] = [
        .package(url: "https://github.com/21-DOT-DEV/swift-secp256k1", exact: "0.23.2"),
        .package(url: "https://github.com/tesseract-one/Blake2.swift", from: "0.2.0"),
    ]
    let secp256k1: Target.Dependency = .product(name: "libsecp256k1", package: "swift-secp256k1")
    let blake2: Target.Dependency = .product(name: "Blake2", package: "Blake2.swift")
    let cryptoLibraries: [Target] = [
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.brew(["nettle"])])
    ]
#else
    let cryptoPackages: [Package.Dependency] = []
    let secp256k1: Target.Dependency = "CSecp256k1"
    let blake2: Target.Dependency = "CBlake2"
    let cryptoLibraries: [Target] = [
        .systemLibrary(
            name: "CSecp256k1",
            pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]
        ),
        .systemLibrary(
            name: "CBlake2",
            pkgConfig: "libb2",
            providers: [.apt(["libb2-dev"])]
        ),
        // RIPEMD-160 for BIP-32 key fingerprints (issue 44), which swift-crypto lacks.
        .systemLibrary(
            name: "CNettle",
            pkgConfig: "nettle",
            providers: [.apt(["nettle-dev"])]
        ),
    ]
#endif

let package = Package(
    name: "Tandem",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TandemBasics", targets: ["TandemBasics"]),
        .library(name: "KaspaCrypto", targets: ["KaspaCrypto"]),
        .library(name: "KasiaProtocol", targets: ["KasiaProtocol"]),
        .library(name: "KaspaTransaction", targets: ["KaspaTransaction"]),
        .library(name: "KaspaRPC", targets: ["KaspaRPC"]),
        .library(name: "KaspaNode", targets: ["KaspaNode"]),
        .library(name: "KasiaIndex", targets: ["KasiaIndex"]),
        .library(name: "CanonicalJSON", targets: ["CanonicalJSON"]),
        .library(name: "RedoProtocol", targets: ["RedoProtocol"]),
        .library(name: "ChatTimeline", targets: ["ChatTimeline"]),
        .library(name: "ChatHistory", targets: ["ChatHistory"]),
        .library(name: "RedoApp", targets: ["RedoApp"]),
        .library(name: "TaskStore", targets: ["TaskStore"]),
        .library(name: "RoutingStore", targets: ["RoutingStore"]),
        .library(name: "Contacts", targets: ["Contacts"]),
        .library(name: "TandemAPI", targets: ["TandemAPI"]),
        .library(name: "TandemProfile", targets: ["TandemProfile"]),
        .library(name: "TandemAccounts", targets: ["TandemAccounts"]),
        .library(name: "TandemSync", targets: ["TandemSync"]),
        .library(name: "TandemWallet", targets: ["TandemWallet"]),
        .library(name: "TandemMessaging", targets: ["TandemMessaging"]),
        .library(name: "ChatScreen", targets: ["ChatScreen"]),
        .library(name: "TandemServerStore", targets: ["TandemServerStore"]),
        .library(name: "TandemServer", targets: ["TandemServer"]),
        .library(name: "TandemNIOTransport", targets: ["TandemNIOTransport"]),
        .library(name: "CommandLineContract", targets: ["CommandLineContract"]),
        .executable(name: "tandem", targets: ["tandem"]),
        .executable(name: "tandem-simnode", targets: ["tandem-simnode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The CLI's live-stream transport (issue 16): linked by the `tandem` executable only, so the
        // libraries stay free of NIO and usable on iOS.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        // Already in the graph through Hummingbird: the HTTP parts a connection guard reads.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // Child processes in tests (issue 26 item 4): awaited without parking a thread.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        // Its FileDescriptor: a child's standard input handed over as a file (TestSupport).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // The OpenAPI document's own check (issue 26 item 5): linked by TandemServerTests only.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0"),
    ] + cryptoPackages,
    targets: cryptoLibraries + [
        // MARK: L0
        .target(
            name: "TandemBasics",
            swiftSettings: swiftSettings
        ),
        // The C library's wcwidth for the chat screen's display widths (issue 16); libc, nothing to link.
        .target(name: "CTextWidth"),
        // The terminal for `tandem chat ui` (issue 16): Debian's ncursesw, linked by `tandem` only.
        .systemLibrary(
            name: "CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(
            name: "KaspaCrypto",
            dependencies: [
                secp256k1, "TandemBasics",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // BIP-32's text form (xprv/kprv), with RIPEMD-160 fingerprints from nettle: not portable
        // (issue 44), so apart from KaspaCrypto; linked by the CLI and the tests.
        .target(
            name: "ExtendedKeyText",
            dependencies: ["KaspaCrypto", "CNettle", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CanonicalJSON",
            dependencies: ["TandemBasics"],
            swiftSettings: swiftSettings
        ),

        // MARK: L1
        .target(
            name: "KasiaProtocol",
            dependencies: [
                "TandemBasics", "KaspaCrypto",
                "CanonicalJSON",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KaspaTransaction",
            dependencies: [
                "TandemBasics", "KaspaCrypto", blake2,
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The rusty-kaspa node's wRPC JSON frames and models (issue 24; kaspa-node.md): pure, no I/O.
        .target(
            name: "KaspaRPC",
            dependencies: ["TandemBasics", "KaspaCrypto", "KaspaTransaction"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RedoProtocol",
            dependencies: [
                "TandemBasics", "CanonicalJSON",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RedoApp",
            dependencies: ["RedoProtocol", "TandemBasics"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ChatTimeline",
            dependencies: ["TandemBasics"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TandemAPI",
            dependencies: ["TandemBasics", "KaspaCrypto", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),

        // MARK: L2
        // The one kasia-indexer model (issue 43 item 7): rows, selections, requests, row JSON.
        .target(
            name: "KasiaIndex",
            dependencies: [
                "TandemBasics", "KaspaCrypto", "KasiaProtocol", "KaspaRPC", "KaspaTransaction", "CanonicalJSON",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ChatHistory",
            dependencies: [
                "TandemBasics", "ChatTimeline", "CanonicalJSON", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SecretFiles",
            dependencies: [
                "TandemBasics",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RoutingStore",
            dependencies: [
                "TandemBasics", "KasiaProtocol", "KaspaCrypto", "CanonicalJSON",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TaskStore",
            dependencies: [
                "TandemBasics", "RedoProtocol", "RedoApp", "CanonicalJSON", "SecretFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the summary scan that `tasks list` reads (issue 49 item 2).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Contacts",
            dependencies: [
                "TandemBasics", "KaspaCrypto", "CanonicalJSON",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),

        // The node client (issue 24): calls matched by id over the WebSocketTransport seam, several
        // nodes with checks, failover and re-subscription. No NIO: the executables inject theirs.
        .target(
            name: "KaspaNode",
            dependencies: ["TandemBasics", "KaspaCrypto", "KaspaTransaction", "KaspaRPC"],
            swiftSettings: swiftSettings
        ),

        // MARK: L3
        // The client libraries by feature (issue 46 item 2); an app links the ones it needs.
        // The profile: its directory and files, clock, secrets (the `SecretStore` seam) and stores.
        .target(
            name: "TandemProfile",
            dependencies: [
                "TandemBasics", "SecretFiles", "KaspaCrypto", "ChatHistory", "Contacts", "RoutingStore", "TaskStore",
                "RedoProtocol", "RedoApp",
            ],
            swiftSettings: swiftSettings
        ),
        // Accounts on a Tandem server: sign-up and sign-in, sessions, the HTTP transport seam.
        .target(
            name: "TandemAccounts",
            dependencies: ["TandemProfile", "TandemAPI", "SecretFiles", "TandemBasics"],
            swiftSettings: swiftSettings
        ),
        // Sync of tasks, contacts and task presets with the account's server.
        .target(
            name: "TandemSync",
            dependencies: [
                "TandemProfile", "TandemAccounts", "TandemAPI", "TaskStore", "Contacts", "ChatHistory", "RedoProtocol",
                "RedoApp", "CanonicalJSON", "KaspaCrypto", "SecretFiles", "TandemBasics",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Kaspa wallet: keys' addresses, balance, sends, the pending ledger, network settings.
        .target(
            name: "TandemWallet",
            dependencies: [
                "TandemProfile", "KaspaCrypto", "KaspaNode", "KaspaRPC", "KaspaTransaction", "SecretFiles",
                "TandemBasics",
            ],
            swiftSettings: swiftSettings
        ),
        // Chat: the Messenger, its ingest and sender, the relay and Kaspa transports, the relay
        // and indexer clients.
        .target(
            name: "TandemMessaging",
            dependencies: [
                "TandemProfile", "TandemAccounts", "TandemWallet", "TandemAPI", "KasiaProtocol", "KasiaIndex",
                "ChatHistory", "ChatTimeline", "Contacts", "RoutingStore", "KaspaNode", "KaspaRPC", "KaspaTransaction",
                "KaspaCrypto", "SecretFiles", "TandemBasics", "CanonicalJSON",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The terminal chat client's screen model (issue 16): layout, wrapping, keys → actions,
        // no curses, so it is tested and benchmarked without a terminal.
        .target(
            name: "ChatScreen",
            dependencies: ["ChatTimeline", "ChatHistory", "CTextWidth", "TandemBasics"],
            swiftSettings: swiftSettings
        ),

        // MARK: L4
        // The server's storage (issue 26 item 2): the account, relay and sync stores on SQLite
        // (GRDB) and PostgreSQL (PostgresNIO), their choke points and planners; no HTTP in it.
        .target(
            name: "TandemServerStore",
            dependencies: [
                "TandemAPI", "TandemBasics", "RedoProtocol",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // `tandem app` (issue 47): the profile's chat served to the browser on the loopback
        // interface, behind a token-for-cookie gate; Hummingbird, so not one of the client libraries.
        .target(
            name: "TandemChatApp",
            dependencies: [
                "TandemMessaging", "ChatHistory", "ChatTimeline", "Contacts", "KasiaProtocol", "KaspaCrypto",
                "TandemBasics",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [
                .embedInCode("Resources/index.html"), .embedInCode("Resources/chat.css"),
                .embedInCode("Resources/chat.js"), .embedInCode("Resources/api.js"),
                .embedInCode("Resources/timeline.js"), .embedInCode("Resources/wallet.js"),
                .embedInCode("Resources/qr.js"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TandemServer",
            dependencies: [
                "TandemServerStore",
                "TandemAPI", "CanonicalJSON", "KaspaCrypto", "KasiaProtocol", "RedoProtocol", "TandemBasics",
                "KaspaTransaction", "KaspaRPC", "KaspaNode", "KasiaIndex",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The app's modules are ES modules to Node too (Tests/WebApp, issue 45 item 4); that
            // file is not served.
            exclude: ["Resources/package.json"],
            // The OpenAPI document (`PackageResources.openapi_json`) and the tasks web app (issue 28,
            // `WebAppController`), embedded in the binary.
            resources: [
                .embedInCode("Resources/openapi.json"),
                .embedInCode("Resources/app/index.html"),
                .embedInCode("Resources/app/app.css"),
                .embedInCode("Resources/app/main.js"),
                .embedInCode("Resources/app/api.js"),
                .embedInCode("Resources/app/jcs.js"),
                .embedInCode("Resources/app/redo.js"),
                .embedInCode("Resources/app/store.js"),
                .embedInCode("Resources/app/validate.js"),
                .embedInCode("Resources/app/replay.js"),
                .embedInCode("Resources/app/tasks.js"),
                .embedInCode("Resources/app/query.js"),
                .embedInCode("Resources/app/sync.js"),
                .embedInCode("Resources/app/stats.js"),
                .embedInCode("Resources/app/sw.js"),
                .embedInCode("Resources/app/presets.js"),
                .embedInCode("Resources/app/preset-query.js"),
                .embedInCode("Resources/app/preset-book.js"),
                .embedInCode("Resources/app/preset-keys.js"),
                .embedInCode("Resources/app/invitations.js"),
                .embedInCode("Resources/app/fields.js"),
            ],
            swiftSettings: swiftSettings
        ),

        // TandemAccounts' HTTPTransport on AsyncHTTPClient (issue 12 "Figures"): linked by the two
        // executables only, so the libraries stay free of NIO and usable on iOS.
        .target(
            name: "TandemNIOTransport",
            dependencies: [
                "TandemAccounts", "KaspaNode",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The exit-status and stderr contract shared by `tandem`, `tandem-simnode` and the Benchmarks package's tools.
        .target(
            name: "CommandLineContract",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "tandem",
            dependencies: [
                "TandemBasics", "KaspaCrypto", "KasiaProtocol", "CanonicalJSON", "RedoProtocol", "ChatTimeline",
                "ChatHistory", "TaskStore", "RedoApp", "RoutingStore", "Contacts", "TandemAccounts", "TandemMessaging",
                "TandemProfile", "TandemSync", "TandemWallet", "KaspaTransaction",
                "TandemAPI", "TandemServer", "TandemServerStore", "CommandLineContract", "ChatScreen", "CNcursesw",
                "TandemNIOTransport", "TandemChatApp",
                "KaspaRPC", "KaspaNode", "SecretFiles", "ExtendedKeyText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Testing
        // Manual clocks, seeded generators and simulations: linked by tests and benchmarks only.
        .target(
            name: "TandemTesting",
            dependencies: ["TandemBasics", "ChatTimeline"],
            swiftSettings: swiftSettings
        ),
        // A simulated rusty-kaspa node (issue 24 "Tests"): the spec's wRPC JSON frames over a real
        // WebSocket, a UTXO set, a mempool and blocks, and the kasia-indexer routes computed from
        // the chain (KasiaProtocol's parser classifies payloads); linked by tests, `tandem-simnode`
        // and the Benchmarks package only.
        .target(
            name: "KaspaSimNode",
            dependencies: [
                "TandemBasics", "KaspaCrypto", "KaspaTransaction", "KaspaRPC", "KasiaProtocol", "KasiaIndex",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The simulated node as a process, for the SDK check in CI and the CLI tests; never shipped.
        .executableTarget(
            name: "tandem-simnode",
            dependencies: [
                "KaspaSimNode", "KaspaRPC", "KaspaCrypto", "CommandLineContract", "TandemBasics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Tests
        // Vectors from ../shared/vectors, copied as data, with loaders shared by every test target.
        .target(
            name: "TestSupport",
            dependencies: [
                "TandemBasics",
                .product(name: "Subprocess", package: "swift-subprocess"),
                // swift-subprocess takes System's FileDescriptor on Apple platforms.
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/TestSupport",
            resources: [.copy("Vectors")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TandemBasicsTests",
            dependencies: ["TandemBasics", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KaspaCryptoTests",
            dependencies: [
                "TandemBasics", "KaspaCrypto", "ExtendedKeyText", "TestSupport", "TandemTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KasiaProtocolTests",
            dependencies: ["TandemBasics", "KasiaProtocol", "KaspaCrypto", "TestSupport", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KaspaTransactionTests",
            dependencies: ["TandemBasics", "KaspaTransaction", "KaspaCrypto", "TestSupport", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KaspaRPCTests",
            dependencies: ["KaspaRPC", "KaspaTransaction", "KaspaCrypto", "TandemBasics", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KaspaNodeTests",
            dependencies: ["KaspaNode", "KaspaRPC", "KaspaCrypto", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // The client layer against the simulated node over loopback WebSockets (issue 24 "Tests").
        .testTarget(
            name: "KaspaNetworkTests",
            dependencies: [
                "KaspaSimNode", "KaspaNode", "KaspaRPC", "KaspaTransaction", "KaspaCrypto", "TandemBasics",
                "TandemAccounts", "TandemMessaging", "TandemProfile", "TandemWallet", "TandemNIOTransport",
                "TestSupport", "ChatHistory", "ChatTimeline",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KaspaSimNodeTests",
            dependencies: [
                "KaspaSimNode", "KasiaProtocol", "KaspaRPC", "KaspaTransaction", "KaspaCrypto", "TandemBasics",
                "KaspaNode", "KasiaIndex",
                "TandemNIOTransport",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CanonicalJSONTests",
            dependencies: ["CanonicalJSON", "TestSupport", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RedoProtocolTests",
            dependencies: ["TandemBasics", "RedoProtocol", "CanonicalJSON", "TestSupport", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ChatTimelineTests",
            dependencies: ["ChatTimeline", "TestSupport", "TandemTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ChatHistoryTests",
            dependencies: [
                "ChatHistory", "ChatTimeline", "TestSupport", "TandemTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RoutingStoreTests",
            dependencies: [
                "TandemBasics", "RoutingStore", "KasiaProtocol", "KaspaCrypto", "TestSupport", "TandemTesting",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RedoAppTests",
            dependencies: [
                "RedoApp", "RedoProtocol", "CanonicalJSON", "TaskStore", "TandemBasics", "TandemTesting", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TaskStoreTests",
            dependencies: [
                "TandemBasics", "TaskStore", "RedoProtocol", "RedoApp", "TestSupport", "TandemTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ContactsTests",
            dependencies: [
                "TandemBasics", "Contacts", "KaspaCrypto", "TestSupport", "TandemTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TandemClientTests",
            dependencies: [
                "TandemAccounts", "TandemSync", "TandemMessaging",
                "TandemProfile", "TandemWallet", "TandemAPI", "TandemBasics", "KaspaCrypto", "TestSupport",
                "TandemTesting", "KaspaRPC",
                "KaspaTransaction", "RedoProtocol", "SecretFiles", "ChatHistory", "ChatTimeline", "KasiaProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ChatScreenTests",
            dependencies: ["ChatScreen", "ChatTimeline", "ChatHistory"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TandemAPITests",
            dependencies: ["TandemAPI", "KaspaTransaction", "KaspaCrypto", "TandemTesting"],
            resources: [.copy("Golden")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TandemServerTests",
            dependencies: [
                "TandemServer", "TandemServerStore", "TandemAPI", "TestSupport", "TandemTesting", "KaspaCrypto",
                "KasiaProtocol", "KasiaIndex",
                "TandemBasics", "RedoProtocol", "CanonicalJSON", "KaspaTransaction", "KaspaSimNode", "KaspaRPC",
                "KaspaNode", "TandemNIOTransport",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Raw sockets that send half a request (ConnectionGuardTests).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TandemCLITests",
            dependencies: [
                "tandem", "tandem-simnode", "CanonicalJSON", "TestSupport", "TandemTesting",
                "TandemMessaging", "TandemProfile", "TandemWallet", "TandemAPI", "TandemBasics", "KaspaCrypto",
                "KasiaProtocol", "ChatHistory",
                "ChatTimeline", "RoutingStore", "RedoProtocol", "RedoApp", "TaskStore", "Contacts", "KaspaTransaction",
                "ChatScreen", "KaspaSimNode",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client libraries against the server that `buildApplication` builds, in this process over
        // loopback (issue 45 item 1); the suites that SIGKILL a server start `tandem serve`.
        .testTarget(
            name: "TandemIntegrationTests",
            dependencies: [
                "tandem", "TandemServer", "TandemServerStore", "TandemAccounts", "TandemMessaging", "TandemProfile",
                "TandemSync", "TandemWallet", "TandemAPI", "TandemBasics",
                "TestSupport", "TandemTesting", "CanonicalJSON", "KaspaCrypto", "KasiaProtocol", "KaspaTransaction",
                "ChatHistory", "ChatTimeline", "RoutingStore", "RedoProtocol", "RedoApp", "TaskStore", "Contacts",
                "TandemChatApp",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

// The fuzz driver exists only in a fuzz build: libFuzzer supplies `main`, so normal builds never
// see the target and `swift build` / `swift test` are unchanged.
if fuzzing {
    package.products.append(.executable(name: "tandem-fuzz", targets: ["tandem-fuzz"]))
    package.targets.append(
        .executableTarget(
            name: "tandem-fuzz",
            dependencies: [
                "TandemSync", "TandemMessaging",
                "CanonicalJSON", "RedoProtocol", "KasiaProtocol", "KaspaCrypto", "Contacts", "TandemAPI",
                "TandemServer", "KaspaRPC", "TaskStore", "TandemServerStore", "TandemBasics",
                "KasiaIndex",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
            ],
            path: "Fuzz/Sources/tandem-fuzz",
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        ))
}

// Benchmarks and harnesses (issue 26 item 3; issue 45 item 5), in Benchmarks/: with
// TANDEM_BENCHMARKS=1 this manifest also has them, built against this package's own modules, so a
// build after the normal one compiles only them (a package of their own compiled the root again).
// Without it, `swift build` and `swift test` see none of this, nor package-benchmark.
// - `tandem-bench`: figures against a baseline measured in the same run (BENCHMARKS.md), and the
//   load and stream harnesses (RELIABILITY.md);
// - `tandem-crash`: the crash-consistency harness (issue 14 item 4);
// - `BenchSupport`: what both share, among it the one helper that starts a server child;
// - `Benchmarks/Benchmarks/NAME`: one package-benchmark suite each (`swift package benchmark`);
// - `BenchHarnessTests`: each tool run as a child process with small sizes.
if Context.environment["TANDEM_BENCHMARKS"] == "1" {
    package.dependencies += [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.4.0"),
        // The micro benchmarks' second driver, with no trait: its default RuntimeInterposer needs
        // a package outside the offline set here, and with its MallocInterposer (LD_PRELOAD) our
        // benchmark processes died with SIGSEGV under its tool on Swift 6.3.1 (ordo-one/benchmark#349
        // is that release's known runtime-hook crash). So wall time, CPU and throughput, and no
        // allocation counts.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: []),
    ]
    /// A package-benchmark executable in `Benchmarks/Benchmarks/NAME`, registering one suite: the
    /// plugin runs the executables whose folder is in a folder named `Benchmarks`. Each suite
    /// writes its own `@main` (the one line package-benchmark's BenchmarkPlugin would generate),
    /// so no build-tool plugin is built for the host: that was swift-argument-parser and
    /// swift-system compiled a second time, in every CI run (issue 45 item 5).
    func suite(_ name: String) -> Target {
        .executableTarget(
            name: name,
            dependencies: ["MicroBenchmarks", "SuiteRegistration", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Benchmarks/\(name)",
            swiftSettings: swiftSettings
        )
    }
    package.products += [
        .executable(name: "tandem-bench", targets: ["tandem-bench"]),
        .executable(name: "tandem-crash", targets: ["tandem-crash"]),
    ]
    package.targets += [
        .target(
            name: "BenchSupport",
            dependencies: ["KasiaProtocol", "KaspaCrypto", "TandemAPI", "TandemBasics", "RedoProtocol", "TaskStore"],
            path: "Benchmarks/Sources/BenchSupport",
            swiftSettings: swiftSettings
        ),
        // The micro benchmarks: each a suite of cases against a same-run baseline (BenchSuite),
        // measured interleaved by `tandem-bench` and registered with package-benchmark.
        .target(
            name: "MicroBenchmarks",
            dependencies: [
                secp256k1, "KaspaCrypto", "KasiaProtocol", "KaspaTransaction", "KaspaRPC", "TandemWallet",
                "TandemTesting", "TaskStore", "RedoProtocol", "RedoApp", "CanonicalJSON", "RoutingStore",
                "TandemBasics", .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/Sources/MicroBenchmarks",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SuiteRegistration",
            dependencies: ["MicroBenchmarks", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Sources/SuiteRegistration",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "tandem-bench",
            dependencies: [
                "BenchSupport", "MicroBenchmarks", secp256k1, "KaspaCrypto", "KaspaTransaction", "KasiaProtocol",
                "CanonicalJSON", "RedoProtocol", "ChatTimeline", "ChatHistory", "TaskStore", "RoutingStore",
                "Contacts", "TandemAPI", "TandemAccounts", "TandemMessaging", "TandemProfile", "TandemSync",
                "TandemWallet", "TandemServer", "TandemServerStore", "TandemTesting",
                "CommandLineContract", "ChatScreen", "TandemNIOTransport", "KaspaRPC", "KaspaNode", "KaspaSimNode",
                "TandemBasics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
            ],
            path: "Benchmarks/Sources/tandem-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "tandem-crash",
            dependencies: [
                "BenchSupport", "CanonicalJSON", "KasiaProtocol", "RedoProtocol", "TandemAPI", "TandemBasics",
                "TandemTesting", "CommandLineContract", "TaskStore", "Contacts", "RoutingStore", "ChatHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/Sources/tandem-crash",
            swiftSettings: swiftSettings
        ),
        suite("KasiaCrypto"),
        suite("KaspaTransactions"),
        suite("Wallet"),
        suite("TaskCommands"),
        suite("Redo"),
        suite("Kasia"),
        suite("TaskApp"),
        .testTarget(
            name: "BenchHarnessTests",
            dependencies: [
                "CanonicalJSON", "RedoProtocol", "TandemAPI",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            path: "Benchmarks/Tests/BenchHarnessTests",
            swiftSettings: swiftSettings
        ),
    ]
}
