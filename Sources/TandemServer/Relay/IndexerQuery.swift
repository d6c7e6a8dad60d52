import Foundation
import Hummingbird
import KasiaIndex
import KaspaCrypto
import TandemAPI
import TandemBasics

/// The query parameters of the relay's live stream (`/kasia/stream`), which repeats `alias` and
/// `address`; the indexer routes read theirs through ``KasiaIndexRequest``, whose texts these
/// refusals share.
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

    /// A Kaspa address in canonical text.
    static func address(_ text: String) throws(Failure) -> String {
        do { return try KaspaAddress(text).description } catch {
            throw Failure(message: KasiaIndexRequestError.invalidAddress(text, reason: error.description).description)
        }
    }

    /// An alias given as hex of its bytes (kasia-protocol §10): even length, hex digits, at most
    /// `maxHexLength` characters, with the indexer's refusal texts.
    static func checkHexTag(_ text: String, name: String, maxHexLength: Int) throws(Failure) {
        guard text.utf8.count <= maxHexLength else {
            throw Failure(message: KasiaIndexRequestError.hexTooLong(name: name, maximum: maxHexLength).description)
        }
        guard Hex.isHex(text) else {
            throw Failure(message: KasiaIndexRequestError.invalidHex(reason: "not hex: \(text)").description)
        }
    }
}
