import Foundation
import TestSupport
import Testing

/// docs/ARCHITECTURE.md's module table is the one module map (issue 10; issue 26 item 1): it and
/// Package.swift name the same modules, every edge of the manifest points down (or sideways
/// within a layer), and what sits below L4 stays buildable for iOS and macOS.
@Suite struct ArchitectureMapTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A layer of the map: L0…L4, then the testing modules, which are linked by tests only.
    enum Layer: Comparable, CustomStringConvertible {
        case level(Int)
        case testing

        init?(_ text: Substring) {
            if text == "testing" {
                self = .testing
            } else if text.first == "L", let level = Int(text.dropFirst()) {
                self = .level(level)
            } else {
                return nil
            }
        }

        /// L0–L3: the libraries an iOS or macOS app links.
        var isPortable: Bool { self < .level(4) }

        var description: String {
            switch self {
            case .level(let level): "L\(level)"
            case .testing: "testing"
            }
        }
    }

    /// One target of the manifest as `swift package dump-package` reads it.
    struct Target {
        let name: String
        let type: String
        /// Targets of this package it depends on.
        let targets: [String]
        /// (product, package) pairs from other packages.
        let products: [(product: String, package: String)]
        /// Its folder, when the manifest names one.
        var path: String? = nil
    }

    /// The manifest's targets on this host, the fuzz driver included (it exists under TANDEM_FUZZ=1),
    /// and with `benchmarks` the bench targets that TANDEM_BENCHMARKS=1 adds.
    static func manifest(benchmarks: Bool = false) async throws -> [String: Target] {
        let json = try await dumpPackage(benchmarks: benchmarks)
        let targets = try #require(json["targets"] as? [[String: Any]])
        var byName: [String: Target] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            var local: [String] = []
            var products: [(String, String)] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = dependency["byName"] as? [Any], let dep = byName.first as? String {
                    local.append(dep)
                } else if let target = dependency["target"] as? [Any], let dep = target.first as? String {
                    local.append(dep)
                } else if let product = dependency["product"] as? [Any], let dep = product.first as? String,
                    let package = product.dropFirst().first as? String
                {
                    products.append((dep, package))
                } else {
                    throw ManifestError.unreadDependency(name, "\(dependency)")
                }
            }
            byName[name] = Target(
                name: name, type: target["type"] as? String ?? "", targets: local, products: products,
                path: target["path"] as? String)
        }
        return byName
    }

    /// `swift package dump-package` of this manifest (or of the package at `package`), as JSON.
    static func dumpPackage(at package: URL = root, benchmarks: Bool = false) async throws -> [String: Any] {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let output = try await TandemProcess.run(
            ["swift", "package", "--package-path", package.path, "--scratch-path", scratch.url.path, "dump-package"],
            environment: ["TANDEM_FUZZ": "1", "TANDEM_BENCHMARKS": benchmarks ? "1" : "0"],
            program: URL(fileURLWithPath: "/usr/bin/env"))
        guard output.status == 0 else { throw ManifestError.dumpFailed(output.stderrText) }
        return try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
    }

    enum MapError: Error {
        case unknownLayer(String, String)
    }

    enum ManifestError: Error {
        case dumpFailed(String)
        case unreadDependency(String, String)
    }

    /// The "Modules" table: each module's layer.
    static func documentedLayers() throws -> [String: Layer] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let pattern = try Regex(#"(?m)^\| ([A-Za-z0-9]+) \| `([A-Za-z0-9-]+)` \|"#)
        var layers: [String: Layer] = [:]
        for match in text.matches(of: pattern) {
            guard let layerText = match.output[1].substring, let name = match.output[2].substring else { continue }
            guard let layer = Layer(layerText) else { throw MapError.unknownLayer(String(layerText), String(name)) }
            layers[String(name)] = layer
        }
        return layers
    }

    /// Modules that are part of the product; tests and their vector loader are not on the map.
    static func mappedTargets(_ manifest: [String: Target]) -> [String: Target] {
        manifest.filter { $0.value.type != "test" && $0.key != "TestSupport" }
    }

    @Test func everyTargetIsOnTheMapAndEveryMappedModuleExists() async throws {
        let targets = await Set(Self.mappedTargets(try Self.manifest()).keys)
        let documented = Set(try Self.documentedLayers().keys)
        #expect(targets.count > 10)
        #expect(targets.subtracting(documented).isEmpty, "missing from docs/ARCHITECTURE.md")
        #expect(documented.subtracting(targets).isEmpty, "documented but not in Package.swift")
    }

    @Test func everyEdgePointsDownOrSideways() async throws {
        let manifest = await Self.mappedTargets(try Self.manifest())
        let layers = try Self.documentedLayers()
        var upward: [String] = []
        for target in manifest.values {
            guard let layer = layers[target.name] else { continue }
            for dependency in target.targets {
                guard let dependencyLayer = layers[dependency] else { continue }
                if layer == .testing { continue }
                if dependencyLayer == .testing {
                    upward.append("\(target.name) (\(layer)) → \(dependency) (testing)")
                } else if dependencyLayer > layer {
                    upward.append("\(target.name) (\(layer)) → \(dependency) (\(dependencyLayer))")
                }
            }
        }
        #expect(upward.sorted() == [], "edges that point up")
    }

    /// The benchmarks and harnesses are targets only with TANDEM_BENCHMARKS=1 (issue 26 item 3, issue
    /// 45 item 5): without it the manifest has no bench target, no executable of the product reaches
    /// a testing module through any chain of modules, no target of the product depends on a bench
    /// target, and every package-benchmark suite is in the folder its plugin looks in.
    @Test func theRootBuildsNoBenchmarkAndItsExecutablesLinkNoTestingCode() async throws {
        let manifest = try await Self.manifest()
        let layers = try Self.documentedLayers()
        #expect(manifest.keys.filter { $0.lowercased().contains("bench") }.isEmpty)
        for executable in manifest.values where executable.type == "executable" {
            guard layers[executable.name] != .testing else { continue }
            var seen: Set<String> = []
            var frontier = executable.targets
            while let next = frontier.popLast() {
                guard seen.insert(next).inserted else { continue }
                frontier += manifest[next]?.targets ?? []
            }
            let testing = seen.filter { layers[$0] == .testing || $0 == "TestSupport" }
            #expect(testing.isEmpty, "\(executable.name) links \(testing.sorted())")
        }
        let withBenchmarks = try await Self.manifest(benchmarks: true)
        let benchTargets = Set(withBenchmarks.keys).subtracting(manifest.keys)
        #expect(benchTargets.isSuperset(of: ["tandem-bench", "tandem-crash", "BenchSupport", "BenchHarnessTests"]))
        for target in withBenchmarks.values where manifest[target.name] != nil {
            #expect(Set(target.targets).isDisjoint(with: benchTargets), "\(target.name) depends on a bench target")
        }
        let suites = withBenchmarks.values.filter { $0.products.contains { $0.product == "Benchmark" } }
            .filter { $0.type == "executable" }
        #expect(suites.count >= 7)
        for suite in suites {
            #expect(
                suite.path == "Benchmarks/Benchmarks/\(suite.name)", "\(suite.name) is where package-benchmark finds it"
            )
        }
    }

    /// Packages whose products need a server or NIO; none may be linked below L4.
    static let serverPackages: Set<String> = [
        "swift-nio", "swift-nio-extras", "swift-nio-ssl", "swift-nio-http2", "swift-nio-transport-services",
        "hummingbird", "hummingbird-websocket", "hummingbird-auth", "swift-websocket", "postgres-nio",
        "async-http-client", "swift-service-lifecycle", "swift-prometheus",
    ]
    /// The system libraries a portable library may link: an iOS or macOS app takes them from
    /// SwiftPM packages that build the C (docs/ARCHITECTURE.md "Apple platforms").
    static let portableSystemLibraries: Set<String> = ["CSecp256k1", "CBlake2"]

    @Test func portableLibrariesLinkNoServerPackageAndNoOtherSystemLibrary() async throws {
        let manifest = await Self.mappedTargets(try Self.manifest())
        let layers = try Self.documentedLayers()
        var offending: [String] = []
        for target in manifest.values where layers[target.name]?.isPortable == true {
            for (product, package) in target.products where Self.serverPackages.contains(package) {
                offending.append("\(target.name) → \(product) (\(package))")
            }
            for dependency in target.targets
            where manifest[dependency]?.type == "system" && !Self.portableSystemLibraries.contains(dependency) {
                offending.append("\(target.name) → \(dependency) (system library)")
            }
        }
        #expect(offending.sorted() == [])
    }

    /// The server's storage has no HTTP in it (issue 26 item 2): it links no Hummingbird.
    @Test func theServerStoreLinksNoHTTPServer() async throws {
        let manifest = try await Self.manifest()
        let store = try #require(manifest["TandemServerStore"])
        #expect(!store.products.contains { $0.package.hasPrefix("hummingbird") })
        #expect(!store.targets.contains("TandemServer"))
    }

    /// APIs a library below L4 must not use: macOS-only Foundation, processes and users, and
    /// server modules.
    static let portableDenyList = [
        "homeDirectoryForCurrentUser", "homeDirectory(forUser", "NSHomeDirectoryForUser", "NSUserName",
        "NSFullUserName", "Process()", "Foundation.Process", "posix_spawn", "fork()", "getpwuid", "setpriority",
        "import NIO", "import Hummingbird", "import PostgresNIO", "import AsyncHTTPClient", "import WSClient",
        "import ServiceLifecycle",
    ]
    /// Locks other than the package's one lock type, TandemBasics' `Locked` (issue 46 item 1), which
    /// is the one file that uses the platforms' primitives.
    static let everywhereDenyList = [
        "NSLock", "NSRecursiveLock", "NSCondition", "os_unfair_lock", "pthread_mutex", "NIOLockedValueBox", "NIOLock(",
    ]
    static let lockImplementation = "TandemBasics/Concurrency/Locked.swift"

    @Test func librarySourcesUseNoDeniedAPI() throws {
        let layers = try Self.documentedLayers()
        var found: [String] = []
        for file in try Self.moduleSwiftFiles() where file.path != Self.lockImplementation {
            guard let layer = layers[file.module] else { continue }
            let deny = Self.everywhereDenyList + (layer.isPortable ? Self.portableDenyList : [])
            for symbol in deny where file.text.contains(symbol) { found.append("\(file.path): \(symbol)") }
        }
        #expect(found == [])
    }

    /// Every Swift file of the package (sources, tests, benchmarks, fuzz drivers): its path from
    /// the package root and its text.
    static func packageSwiftFiles() throws -> [(path: String, text: String)] {
        var found: [(path: String, text: String)] = []
        for folder in ["Sources", "Tests", "Benchmarks", "Fuzz"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                found.append(
                    ("\(folder)/\(file)", try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)))
            }
        }
        return found
    }

    /// The Swift files of `Sources`, each with its module and its path under `Sources`.
    static func moduleSwiftFiles() throws -> [(module: String, path: String, text: String)] {
        try packageSwiftFiles().compactMap { file in
            let parts = file.path.split(separator: "/", maxSplits: 2)
            guard parts.count == 3, parts[0] == "Sources" else { return nil }
            return (String(parts[1]), "\(parts[1])/\(parts[2])", file.text)
        }
    }

    /// A draw from the system's generator, or one that names no generator (and so takes the
    /// system's). Spelled in pieces so this file does not match itself.
    static func unseededDraws(in line: Substring) -> [String] {
        let system = "SystemRandom" + "NumberGenerator"
        let draws = [".random(" + "in:", ".random" + "Element()", ".shuff" + "led()", ".shuff" + "le()"]
        var found = line.contains(system) ? [system] : []
        if !line.contains("using:") { found += draws.filter { line.contains($0) } }
        return found
    }

    /// Issue 29: every randomized test replays from its seed (TandemTesting's SeededRandom), so
    /// no test or bench test draws from the system's generator.
    @Test func testsDrawOnlySeededRandomness() throws {
        var found: [String] = []
        for folder in ["Tests", "Benchmarks/Tests"] {
            let base = Self.root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    for draw in Self.unseededDraws(in: line) {
                        found.append("\(folder)/\(file):\(number + 1): \(draw)")
                    }
                }
            }
        }
        #expect(found == [])
    }

    /// The randomness check finds an unseeded draw and lets a seeded one through.
    @Test func theRandomnessCheckTellsSeededFromUnseeded() {
        #expect(Self.unseededDraws(in: "let n = UInt64.random(" + "in: 1..<9)") == [".random(" + "in:"])
        #expect(Self.unseededDraws(in: "let n = UInt64.random(in: 1..<9, using: &generator)") == [])
        #expect(!Self.unseededDraws(in: "var g = System" + "RandomNumberGenerator()").isEmpty)
    }

    /// The deny-list check finds what it is meant to find.
    @Test func theDenyListCatchesAMacOSOnlyCall() {
        let line = "let home = FileManager.default.homeDirectoryForCurrentUser"
        #expect(Self.portableDenyList.contains { line.contains($0) })
        #expect(Self.everywhereDenyList.contains { "let lock = NSLock()".contains($0) })
        #expect(!Self.everywhereDenyList.contains { "let state = Locked(0)".contains($0) })
    }
}
