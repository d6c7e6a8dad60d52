import Foundation
import KasiaProtocol
import KaspaCrypto

/// An iOS client from before deterministic aliases (seed 000 §2): a random alias per
/// conversation, announced in its handshake and used to tag its own messages; it fetches a
/// contact's messages only under aliases learned from that contact's handshakes, and once it
/// knows any, drops messages on other aliases (seed §7 item 7).
final class LegacyIOSPeer: SimulatedPeer {
    let key = PrivateKey.generate()
    let address: KaspaAddress
    private(set) var inbox: [KaspaAddress: [String]] = [:]
    private(set) var ownAlias: [KaspaAddress: Alias] = [:]
    private(set) var knownAliases: [KaspaAddress: Set<Alias>] = [:]
    private(set) var rejectedHandshakes = 0
    private var cursor = 0

    init() { address = KaspaAddress(publicKey: key.xOnlyPublicKey) }

    func sendHandshake(to peer: KaspaAddress, on chain: SimulatedChain, isResponse: Bool) throws {
        let alias = ownAlias[peer] ?? Alias.random()
        ownAlias[peer] = alias
        var json: [String: Any] = [
            "type": "handshake", "alias": alias.rawValue, "timestamp": 1_735_689_600_000, "version": 1,
            "conversationId": "0123456789ab", "conversation_id": "0123456789ab",
            "recipientAddress": peer.description, "recipient_address": peer.description,
            "sendToRecipient": true, "send_to_recipient": true,
        ]
        if isResponse {
            json["isResponse"] = true
            json["is_response"] = true
        }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        try chain.submitHandshake(text, from: address, to: peer)
    }

    func send(_ text: String, to peer: KaspaAddress, on chain: SimulatedChain) throws -> Bool {
        guard let alias = ownAlias[peer] else { return false }
        try chain.submitMessage(text, alias: alias, from: address, to: peer)
        return true
    }

    func poll(_ chain: SimulatedChain) throws {
        for tx in chain.read(after: &cursor) {
            if let plaintext = handshakePlaintext(tx, key: key, me: address) {
                // Old decoder: `alias` required; its fallback took the first 12 characters.
                let object = (try? JSONSerialization.jsonObject(with: Data(plaintext.utf8))) as? [String: Any]
                let aliasText = object?["alias"] as? String ?? String(plaintext.prefix(12))
                if let alias = try? Alias(aliasText) {
                    knownAliases[tx.sender, default: []].insert(alias)
                } else {
                    rejectedHandshakes += 1
                }
                if ownAlias[tx.sender] == nil { try sendHandshake(to: tx.sender, on: chain, isResponse: true) }
                continue
            }
            guard let known = knownAliases[tx.sender], !known.isEmpty,
                let message = contextualMessage(tx, key: key), known.contains(message.alias)
            else { continue }
            inbox[tx.sender, default: []].append(message.text)
        }
    }
}

/// Old web validation of a handshake (kasia-protocol §5.1): a 12-hex alias and version ≤ 1.
func oldWebAccepts(_ plaintext: String) -> Bool {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(plaintext.utf8))) as? [String: Any],
        let alias = object["alias"] as? String, (try? Alias(alias)) != nil, alias.count == 12,
        let version = object["version"] as? Int, version <= 1
    else { return false }
    return true
}
