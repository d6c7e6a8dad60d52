import Crypto
import Foundation
import KaspaCrypto
import TandemBasics
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The relay as another app sees it: plain HTTP and JSON, nothing from Tandem's client. The
/// peer simulators use it so that a bug shared by `RelayClient` and the server cannot hide.
///
/// Submissions are signed from issue 11 item 1's text: BIP-340 over
/// `SHA-256("tandem-relay/v1\n" ‖ sender ‖ "\n" ‖ receiver ‖ "\n" ‖ amount ‖ "\n" ‖ nonce ‖ "\n" ‖ payload)`,
/// and the answer's `tx_id` must be `SHA-256(digest)`. Reads page the kasia-indexer way
/// (spec §10): `block_time` is an inclusive cursor, so rows are de-duplicated by `tx_id`.
struct RawRelay: Sendable {
    let base: URL

    /// Nonces in order, one per submission of this process, so every signed body is new
    /// without drawing from the system's generator.
    private static let nonces = Locked<UInt64>(1)

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Signs and posts `payload`; returns the relay's `tx_id` after checking it.
    @discardableResult
    func submit(_ payload: [UInt8], key: PrivateKey, receiver: KaspaAddress? = nil, amount: UInt64? = nil)
        async throws -> String
    {
        let sender = KaspaAddress(publicKey: key.xOnlyPublicKey).description
        let nonce = Self.nonces.withLock { next in
            defer { next += 1 }
            return next
        }
        var message = Array("tandem-relay/v1\n\(sender)\n\(receiver?.description ?? "")\n".utf8)
        message += Array("\(amount ?? 0)\n\(nonce)\n".utf8) + payload
        let digest = Array(SHA256.hash(data: message))
        let signature = try key.signature(for: digest)
        var body: [String: Any] = [
            "payload": Hex.encode(payload), "sender": sender, "nonce": nonce,
            "signature": Hex.encode(signature.rawRepresentation),
        ]
        if let receiver { body["receiver"] = receiver.description }
        if let amount { body["amount"] = amount }
        var request = URLRequest(url: base.appendingPathComponent("kasia/transactions"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
            let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let txID = answer["tx_id"] as? String
        else { throw Failure(description: "submission refused: \(String(decoding: data, as: UTF8.self))") }
        guard txID == Hex.encode(Array(SHA256.hash(data: digest))) else {
            throw Failure(description: "tx_id \(txID) is not SHA-256 of the digest")
        }
        return txID
    }

    /// Every row of an indexer route from `cursor` on, not in `seen`; advances both.
    func rows(_ route: String, _ query: [String: String], cursor: inout UInt64, seen: inout Set<String>)
        async throws -> [[String: Any]]
    {
        var fresh: [[String: Any]] = []
        while true {
            var components = try #require(
                URLComponents(url: base.appendingPathComponent("kasia/" + route), resolvingAgainstBaseURL: false))
            components.queryItems =
                query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } + [
                    URLQueryItem(name: "block_time", value: String(cursor)), URLQueryItem(name: "limit", value: "50"),
                ]
            let (data, response) = try await URLSession.shared.data(from: try #require(components.url))
            guard (response as? HTTPURLResponse)?.statusCode == 200,
                let page = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
            else { throw Failure(description: "\(route): \(String(decoding: data, as: UTF8.self))") }
            for row in page {
                guard let txID = row["tx_id"] as? String, let time = (row["block_time"] as? NSNumber)?.uint64Value
                else { throw Failure(description: "\(route): a row without tx_id or block_time") }
                cursor = max(cursor, time)
                if seen.insert(txID).inserted { fresh.append(row) }
            }
            if page.count < 50 { return fresh }
        }
    }

    /// The bytes of a hex column (`message_payload`, `stashed_data`).
    static func bytes(_ row: [String: Any], _ column: String) -> [UInt8]? {
        (row[column] as? String).flatMap { try? Hex.decode($0) }
    }
}
