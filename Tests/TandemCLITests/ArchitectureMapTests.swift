import Foundation
import Testing

/// docs/ARCHITECTURE.md's module table and Package.swift name the same modules (issue 10: "the
/// module map matches Package.swift").
@Suite struct ArchitectureMapTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every non-test target of the package manifest.
    static func packageTargets() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try Regex(#"\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let names = manifest.matches(of: pattern).compactMap { $0.output[2].substring.map(String.init) }
        return Set(names).subtracting(["TestSupport"])
    }

    /// The first-column module names of the "Modules" table.
    static func documentedModules() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let pattern = try Regex(#"(?m)^\| [^|]+ \| `([A-Za-z0-9-]+)` \|"#)
        return Set(text.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) })
    }

    @Test func everyTargetIsOnTheMapAndEveryMappedModuleExists() throws {
        let targets = try Self.packageTargets()
        let documented = try Self.documentedModules()
        #expect(targets.count > 10)
        #expect(targets.subtracting(documented).isEmpty, "missing from docs/ARCHITECTURE.md")
        #expect(documented.subtracting(targets).isEmpty, "documented but not in Package.swift")
    }
}
