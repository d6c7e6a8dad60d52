import Foundation
import KasiaProtocol
import KaspaCrypto

/// An iOS KaChat from before deterministic aliases (seed 000 §2), talking to the relay over
/// plain HTTP: one random alias per conversation, announced in a KaChat hybrid-era handshake
/// (camelCase plus snake_case duplicates, `version: 1`, kasia-protocol §5.1) and used to tag
/// its messages (`ciph_msg:1:comm:<alias>:` + base64, §4). It reads a contact's messages only
/// on aliases learned from that contact's handshakes (seed §7 item 7), with the old decoder
/// that needs `alias` (its fallback took the first 12 characters, seed §7 item 2).
actor LegacyIOSRelayPeer {
    struct ReceivedHandshake: Sendable, Equatable {
        let alias: String?
        let version: Int?
    }

    let key = PrivateKey.generate()
    nonisolated let address: KaspaAddress
    private let relay: RawRelay
    private(set) var ownAlias: [KaspaAddress: Alias] = [:]
    private(set) var knownAliases: [KaspaAddress: Set<Alias>] = [:]
    private(set) var inbox: [KaspaAddress: [String]] = [:]
    /// The fields of each handshake received, by sender, that the old app checks.
    private(set) var handshakes: [KaspaAddress: [ReceivedHandshake]] = [:]
    private(set) var rejectedHandshakes = 0
    private var handshakeCursor: UInt64 = 0
    private var messageCursors: [String: UInt64] = [:]
    private var seen: Set<String> = []

    init(relay: RawRelay) {
        self.relay = relay
        address = KaspaAddress(publicKey: key.xOnlyPublicKey)
    }

    func sendHandshake(to peer: KaspaAddress, isResponse: Bool) async throws {
        let alias = ownAlias[peer] ?? Alias.random()
        ownAlias[peer] = alias
        var json: [String: Any] = [
            "type": "handshake", "alias": alias.rawValue, "timestamp": Int64(Date().timeIntervalSince1970 * 1000),
            "version": 1, "conversationId": "0123456789ab", "conversation_id": "0123456789ab",
            "recipientAddress": peer.description, "recipient_address": peer.description,
            "sendToRecipient": true, "send_to_recipient": true,
        ]
        if isResponse {
            json["isResponse"] = true
            json["is_response"] = true
        }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        let sealed = try KasiaCipher.seal(text, to: peer)
        try await relay.submit(
            KasiaPayload.handshake(sealed: sealed).encoded(root: .ciphMsg), key: key, receiver: peer, amount: 20_000_000
        )
    }

    /// Sends on this conversation's alias; false when there is none yet (no handshake).
    @discardableResult
    func send(_ text: String, to peer: KaspaAddress) async throws -> Bool {
        guard let alias = ownAlias[peer] else { return false }
        let sealed = try KasiaCipher.seal(text, to: peer)
        try await relay.submit(
            KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded(root: .ciphMsg),
            key: key)
        return true
    }

    /// Reads handshakes to us (answering each new contact with our own), then every contact's
    /// messages on the aliases its handshakes announced.
    func poll() async throws {
        var (cursor, seen) = (handshakeCursor, self.seen)
        let handshakeRows = try await relay.rows(
            "handshakes/by-receiver", ["address": address.description], cursor: &cursor, seen: &seen)
        (handshakeCursor, self.seen) = (cursor, seen)
        for row in handshakeRows {
            guard let senderText = row["sender"] as? String, let sender = try? KaspaAddress(senderText),
                let sealed = RawRelay.bytes(row, "message_payload"),
                let plaintext = try? KasiaCipher.open(sealed, using: key)
            else { continue }
            let object = (try? JSONSerialization.jsonObject(with: Data(plaintext.utf8))) as? [String: Any]
            handshakes[sender, default: []].append(
                ReceivedHandshake(alias: object?["alias"] as? String, version: object?["version"] as? Int))
            let aliasText = object?["alias"] as? String ?? String(plaintext.prefix(12))
            guard let alias = try? Alias(aliasText) else {
                rejectedHandshakes += 1
                continue
            }
            knownAliases[sender, default: []].insert(alias)
            if ownAlias[sender] == nil { try await sendHandshake(to: sender, isResponse: true) }
        }
        for (peer, aliases) in knownAliases {
            for alias in aliases.sorted() {
                let route = peer.description + "/" + alias.rawValue
                var (cursor, seen) = (messageCursors[route] ?? 0, self.seen)
                let rows = try await relay.rows(
                    "contextual-messages/by-sender",
                    ["address": peer.description, "alias": alias.indexerQueryParameter], cursor: &cursor, seen: &seen)
                (messageCursors[route], self.seen) = (cursor, seen)
                for row in rows {
                    guard let body = RawRelay.bytes(row, "message_payload"),
                        let sealed = Data(base64Encoded: Data(body)),
                        let text = try? KasiaCipher.open(Array(sealed), using: key)
                    else { continue }
                    inbox[peer, default: []].append(text)
                }
            }
        }
    }
}
