import Foundation
import Testing

/// Issue 46 item 1: the libraries deploy where the seed apps do. The package declares iOS 16 and
/// macOS 13 (KaChat's floor, below seed 001's iOS 17 and Redo's iOS 17 / macOS 14); nothing in
/// it imports `Synchronization`; and a library below L4 uses no API newer than that floor, which
/// only an Apple toolchain would otherwise catch, so the check reads the sources for the symbols.
extension ArchitectureMapTests {
    /// Symbols newer than iOS 16 / macOS 13, with the release that brought them. Spelled in
    /// pieces where this file would otherwise name them in code.
    static let availabilityDenyList: [(symbol: String, since: String)] = [
        ("import " + "Synchronization", "iOS 18 / macOS 15"), ("Mutex" + "<", "iOS 18 / macOS 15"),
        ("Mutex" + "(", "iOS 18 / macOS 15"), ("Atomic" + "<", "iOS 18 / macOS 15"),
        ("Atomic" + "(", "iOS 18 / macOS 15"), ("TaskExecutor", "iOS 18 / macOS 15"),
        ("executorPreference", "iOS 18 / macOS 15"), ("String(validating:", "iOS 18 / macOS 15"),
        ("Int128", "iOS 18 / macOS 15"), ("RangeSet", "iOS 18 / macOS 15"),
        ("some AsyncSequence<", "iOS 18 / macOS 15"), ("any AsyncSequence<", "iOS 18 / macOS 15"),
        ("RecurrenceRule", "iOS 18 / macOS 15"), ("@Observable", "iOS 17 / macOS 14"),
        ("import Observation", "iOS 17 / macOS 14"), ("import SwiftData", "iOS 17 / macOS 14"),
        ("DiscardingTaskGroup", "iOS 17 / macOS 14"), ("ExecutorJob", "iOS 17 / macOS 14"),
        ("#Predicate", "iOS 17 / macOS 14"), ("InlineArray", "iOS 26 / macOS 26"), ("Task(name:", "iOS 26 / macOS 26"),
        ("Task.immediate", "iOS 26 / macOS 26"),
    ]

    /// Uses of a newer API that a library makes behind `@available`/`#available`, each reviewed:
    /// file → the symbols it may name. Each such file must carry the gate.
    static let gatedUses: [String: Set<String>] = [
        "KaspaNode/ReadingPlacement.swift": ["TaskExecutor", "executorPreference"]
    ]

    /// The deny-listed symbols in `text`'s code; comment lines are prose and may name them.
    static func newerSymbols(in text: String) -> [String] {
        var found: [String] = []
        for line in text.split(separator: "\n") where !line.drop(while: { $0 == " " }).hasPrefix("//") {
            for entry in availabilityDenyList where line.contains(entry.symbol) && !found.contains(entry.symbol) {
                found.append(entry.symbol)
            }
        }
        return found
    }

    @Test func thePackageDeclaresTheAppsPlatforms() async throws {
        let json = try await Self.dumpPackage()
        let platforms = try #require(json["platforms"] as? [[String: Any]])
        var versions: [String: String] = [:]
        for platform in platforms {
            if let name = platform["platformName"] as? String { versions[name] = platform["version"] as? String }
        }
        #expect(versions == ["ios": "16.0", "macos": "13.0"])
    }

    /// The packages whose products the libraries link deploy at or below the floor too: a
    /// dependency that raised its platforms would make the libraries unlinkable at iOS 16 /
    /// macOS 13 whatever their own sources use. Read from each resolved checkout's manifest.
    @Test func theLibrariesDependenciesDeployAtTheFloor() async throws {
        let manifest = await Self.mappedTargets(try Self.manifest())
        let layers = try Self.documentedLayers()
        var packages: Set<String> = []
        for target in manifest.values where layers[target.name]?.isPortable == true {
            for (_, package) in target.products { packages.insert(package.lowercased()) }
        }
        #expect(packages.contains("swift-crypto") && packages.contains("grdb.swift"))
        let checkouts = Self.root.appendingPathComponent(".build/checkouts")
        let folders = try FileManager.default.contentsOfDirectory(atPath: checkouts.path)
        let floor = ["ios": [16, 0], "macos": [13, 0]]
        for package in packages.sorted() {
            let folder = try #require(
                folders.first { $0.lowercased() == package }, "\(package) is not resolved in .build/checkouts")
            let json = try await Self.dumpPackage(at: checkouts.appendingPathComponent(folder))
            for platform in json["platforms"] as? [[String: Any]] ?? [] {
                guard let name = platform["platformName"] as? String, let highest = floor[name],
                    let version = platform["version"] as? String
                else { continue }
                let parts = version.split(separator: ".").compactMap { Int($0) }
                #expect(
                    parts.lexicographicallyPrecedes(highest) || parts == highest, "\(package) needs \(name) \(version)")
            }
        }
    }

    @Test func librariesUseNoAPINewerThanTheFloor() throws {
        let layers = try Self.documentedLayers()
        var found: [String] = []
        for file in try Self.moduleSwiftFiles() where layers[file.module]?.isPortable == true {
            let allowed = Self.gatedUses[file.path] ?? []
            if !allowed.isEmpty {
                #expect(
                    file.text.contains("@available(macOS 15, iOS 18"), "\(file.path) names a gated API without its gate"
                )
            }
            for symbol in Self.newerSymbols(in: file.text) where !allowed.contains(symbol) {
                let since = Self.availabilityDenyList.first { $0.symbol == symbol }?.since ?? ""
                found.append("\(file.path): \(symbol) (\(since))")
            }
        }
        #expect(found == [])
    }

    /// The platforms apply to every target of the package, tests and benchmarks included, so no
    /// file anywhere imports the module whose lock needed iOS 18.
    @Test func nothingImportsSynchronization() throws {
        let found = try Self.packageSwiftFiles().filter {
            Self.newerSymbols(in: $0.text).contains("import " + "Synchronization")
        }
        #expect(found.map(\.path) == [])
    }

    /// A planted use of each deny-listed symbol is caught; the same words in a comment, and the
    /// package's own lock, are not.
    @Test func theAvailabilityCheckCatchesAPlantedUse() {
        for entry in Self.availabilityDenyList {
            #expect(Self.newerSymbols(in: "func f() {\n    let x = \(entry.symbol)\n}") == [entry.symbol])
            #expect(Self.newerSymbols(in: "    /// unlike \(entry.symbol), this works on iOS 16") == [])
        }
        #expect(Self.newerSymbols(in: "let state = Locked(0)\nlet text = String(strictUTF8: bytes)") == [])
        #expect(
            Self.newerSymbols(in: "import Foundation\nimport " + "Synchronization\nlet m = " + "Mutex" + "(0)")
                == ["import " + "Synchronization", "Mutex" + "("])
    }
}
