import Foundation
import Testing

/// Issue 46 item 2: the client libraries by feature. Each is a product an app can link alone, and
/// the modules a product brings are the ones its feature needs: a task-only app links no Kaspa
/// transaction, node or RPC code and no BLAKE2b.
extension ArchitectureMapTests {
    static let clientLibraries = ["TandemProfile", "TandemAccounts", "TandemSync", "TandemWallet", "TandemMessaging"]

    /// Every target `target` reaches through this package's targets (itself excluded).
    static func closure(of target: String, in manifest: [String: Target]) -> Set<String> {
        var seen: Set<String> = []
        var frontier = manifest[target]?.targets ?? []
        while let next = frontier.popLast() {
            guard seen.insert(next).inserted else { continue }
            frontier += manifest[next]?.targets ?? []
        }
        return seen
    }

    /// Each client library is a product of its own; no module re-exports them (a re-exporting
    /// umbrella defeats incremental builds: docs/ARCHITECTURE.md "The client libraries").
    @Test func eachClientLibraryIsAProductAndNothingReExportsThem() async throws {
        let json = try await Self.dumpPackage()
        let products = try #require(json["products"] as? [[String: Any]])
        var targetsOf: [String: [String]] = [:]
        for product in products {
            if let name = product["name"] as? String { targetsOf[name] = product["targets"] as? [String] ?? [] }
        }
        for library in Self.clientLibraries { #expect(targetsOf[library] == [library], "\(library) is a product") }
        let manifest = try await Self.manifest()
        #expect(manifest["TandemClient"] == nil)
        let reexports = try Self.packageSwiftFiles().filter { $0.text.contains("@_" + "exported") }
        #expect(reexports.map(\.path) == [])
    }

    /// The modules of the Kaspa stack that a task-only app must not link.
    static let kaspaStack: Set<String> = ["KaspaTransaction", "KaspaNode", "CBlake2", "KaspaRPC"]

    @Test func aTaskOnlyAppLinksNoKaspaStack() async throws {
        let manifest = try await Self.manifest()
        for product in ["TandemSync", "TandemAccounts", "TandemProfile"] {
            let reached = Self.closure(of: product, in: manifest)
            #expect(!reached.isEmpty)
            #expect(
                reached.isDisjoint(with: Self.kaspaStack), "\(product) links \(reached.intersection(Self.kaspaStack))")
        }
        // The check can fail: the wallet and messaging do link the stack.
        #expect(Self.closure(of: "TandemWallet", in: manifest).isSuperset(of: ["KaspaTransaction", "KaspaNode"]))
        #expect(Self.closure(of: "TandemMessaging", in: manifest).contains("KaspaRPC"))
    }
}
