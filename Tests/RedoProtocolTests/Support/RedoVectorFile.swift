import CanonicalJSON
import Foundation
import RedoProtocol
import TestSupport
import Testing

/// The reference vectors, parsed with our own strict parser (the file is I-JSON too).
enum RedoVectorFile {
    enum LoadError: Error {
        case missingSection(String)
        case missingKey(String)
    }

    static let root: JSONValue? = {
        guard let data = try? Vectors.data(named: "redo-vectors") else { return nil }
        return try? CanonicalJSON.parse(data, limits: .init(maxBytes: 64 << 20))
    }()

    static func section(_ name: String) throws -> JSONValue {
        guard let value = root?[name] else { throw LoadError.missingSection(name) }
        return value
    }

    static func list(_ name: String) -> [JSONValue] {
        (try? section(name))?.arrayValue ?? []
    }

    /// The signing key for a `keys[].label`.
    static func signingKey(_ label: String) throws -> SigningKey {
        let entry = list("keys").first { $0["label"]?.stringValue == label }
        guard let seedHex = entry?["seedHex"]?.stringValue, let seed = Data(testHex: seedHex) else {
            throw LoadError.missingKey(label)
        }
        return try SigningKey(seed: Array(seed))
    }
}

/// A named vector entry, so parameterized tests show the vector's name.
struct NamedVector: CustomTestStringConvertible, Sendable {
    let value: JSONValue
    var testDescription: String { value["name"]?.stringValue ?? "unnamed" }

    static func all(_ section: String) -> [NamedVector] {
        RedoVectorFile.list(section).map(NamedVector.init)
    }
}

extension JSONValue {
    var text: String { stringValue ?? "" }
}
