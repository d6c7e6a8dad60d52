public import Foundation

/// Loads the reference vectors copied from `../shared/vectors` into this target's resources.
public enum Vectors {
    public enum LoadError: Error, CustomStringConvertible {
        case missing(String)
        case notAnObject(String)

        public var description: String {
            switch self {
            case .missing(let name): "vector file \(name) is not in the test bundle"
            case .notAnObject(let name): "vector file \(name) is not a JSON object"
            }
        }
    }

    /// Raw bytes of a vector file, e.g. `data(named: "kasia-vectors")`.
    public static func data(named name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors")
        else { throw LoadError.missing(name) }
        return try Data(contentsOf: url)
    }

    /// The committed vectors directory, `Tests/TestSupport/Vectors`.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Vectors")

    /// Whether the committed vector file `name` holds `made` and a newline: a vector Swift writes
    /// for the web app's modules (issue 45 item 4). With `TANDEM_WRITE_VECTORS=1` in the
    /// environment it is written first.
    public static func committedFile(_ name: String, holds made: [UInt8]) throws -> Bool {
        let file = directory.appendingPathComponent(name)
        let bytes = made + [0x0A]
        if ProcessInfo.processInfo.environment["TANDEM_WRITE_VECTORS"] == "1" {
            try Data(bytes).write(to: file, options: .atomic)
        }
        return Array(try Data(contentsOf: file)) == bytes
    }

    /// Decodes a whole vector file into a `Decodable` mirror of the sections a test needs.
    public static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(named: name))
    }
}

/// Hex helpers for tests. Production code has its own typed parsers.
extension Data {
    public init?(testHex hex: String) {
        guard hex.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }

    public var testHex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Vectors {
    /// The directory holding the build products (the `tandem` binary among them).
    public static var productsDirectory: URL { Bundle.module.bundleURL.deletingLastPathComponent() }
}

/// A fresh temporary directory under this test process's scratch root. Tests call `remove()` in a
/// `defer`; whatever is left (a test that failed before its `defer`, a helper that hands out only
/// the URL, a server's data directory) goes with the root when the process exits.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = ScratchRoot.url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// One directory per test process, `tandem-test-PID-…` in the system temporary directory,
/// removed at exit. Roots left by processes that no longer run (a crash, a kill) are removed
/// when the next test process makes its own.
enum ScratchRoot {
    static let prefix = "tandem-test-"

    static let url: URL = {
        let temporary = FileManager.default.temporaryDirectory
        removeAbandonedRoots(in: temporary)
        let url = temporary.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchRoot.url) }
        return url
    }()

    private static func removeAbandonedRoots(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let fields = name.dropFirst(prefix.count).split(separator: "-")
            // Only this scheme's roots (PID, then eight characters): a PID that no longer runs.
            guard fields.count == 2, fields[1].count == 8, let pid = pid_t(fields[0]) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}
