import Foundation
import Hummingbird
import KaspaCrypto
import TandemAPI
import TandemBasics

/// The query parameters of one indexer request, read the way kasia-indexer reads them.
struct IndexerQuery: Sendable {
    struct Failure: Error {
        let message: String
    }

    private let parameters: [String: [String]]

    init(_ parameters: Parameters) {
        var grouped: [String: [String]] = [:]
        for (key, value) in parameters { grouped[String(key), default: []].append(String(value)) }
        self.parameters = grouped
    }

    func value(_ name: String) -> String? { parameters[name]?.first }

    func values(_ name: String) -> [String] { parameters[name] ?? [] }

    /// A required Kaspa address, in canonical text.
    func address(_ name: String) throws(Failure) -> String {
        guard let text = value(name) else {
            throw Failure(message: "Failed to deserialize query string: missing field `\(name)`")
        }
        return try Self.address(text)
    }

    static func address(_ text: String) throws(Failure) -> String {
        do { return try KaspaAddress(text).description } catch {
            throw Failure(message: "Invalid address: \(error.description)")
        }
    }

    /// `limit`: default when absent, capped at `max`.
    func limit(default defaultValue: Int, max maximum: Int) throws(Failure) -> Int {
        guard let text = value("limit") else { return defaultValue }
        guard let limit = UInt64(text) else { throw Failure(message: "Invalid limit: \(text)") }
        return Int(min(limit, UInt64(maximum)))
    }

    /// `block_time`: the inclusive cursor, 0 when absent.
    func blockTime() throws(Failure) -> UnixMillis {
        guard let text = value("block_time") else { return UnixMillis(0) }
        guard let time = UInt64(text) else { throw Failure(message: "Invalid block_time: \(text)") }
        return UnixMillis(Int64(clamping: time))
    }

    /// An alias or scope given as hex of its bytes (kasia-protocol §10): even length, hex
    /// digits, at most `maxHexLength` characters. Returned as given (the indexer echoes it).
    func hexTag(_ name: String, maxHexLength: Int) throws(Failure) -> String {
        guard let text = value(name) else {
            throw Failure(message: "Failed to deserialize query string: missing field `\(name)`")
        }
        try Self.checkHexTag(text, name: name, maxHexLength: maxHexLength)
        return text
    }

    /// The indexer's own texts: the length message names the parameter, capitalised; a bad
    /// digit is reported as "alias hex" on both routes, as kasia-indexer does.
    static func checkHexTag(_ text: String, name: String, maxHexLength: Int) throws(Failure) {
        guard text.utf8.count <= maxHexLength else {
            let label = name.prefix(1).uppercased() + name.dropFirst()
            throw Failure(message: "\(label) hex length cannot exceed \(maxHexLength) characters")
        }
        guard Hex.isHex(text) else { throw Failure(message: "Invalid alias hex: \(text)") }
    }
}
