import Foundation
import KasiaProtocol
import KaspaCrypto

/// The Kasia web deterministic branch (seed 000 §1), talking to the relay over plain HTTP:
/// both aliases derived from keys (§1.1), alias-less `version: 1` handshakes (§1.2, §5.1 of
/// kasia-protocol), handshakes above version 1 rejected (seed §7 item 4), sends with
/// `theirAlias` and reads only `myAlias` (§1.3), base64 bodies.
actor WebDeterministicRelayPeer {
    let key = PrivateKey.generate()
    nonisolated let address: KaspaAddress
    private let relay: RawRelay
    private(set) var contacts: Set<KaspaAddress> = []
    private(set) var inbox: [KaspaAddress: [String]] = [:]
    private(set) var rejectedHandshakes = 0
    private var handshakeCursor: UInt64 = 0
    private var messageCursors: [KaspaAddress: UInt64] = [:]
    private var seen: Set<String> = []

    init(relay: RawRelay) {
        self.relay = relay
        address = KaspaAddress(publicKey: key.xOnlyPublicKey)
    }

    func pair(_ peer: KaspaAddress) throws -> AliasPair { try AliasPair(privateKey: key, peer: peer) }

    func sendHandshake(to peer: KaspaAddress, isResponse: Bool) async throws {
        contacts.insert(peer)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let text =
            isResponse
            ? #"{"type":"handshake","timestamp":\#(now),"version":1,"isResponse":true}"#
            : #"{"type":"handshake","timestamp":\#(now),"version":1}"#
        try await relay.submit(
            KasiaPayload.handshake(sealed: try KasiaCipher.seal(text, to: peer)).encoded, key: key, receiver: peer,
            amount: 20_000_000)
    }

    func send(_ text: String, to peer: KaspaAddress) async throws {
        contacts.insert(peer)
        let sealed = try KasiaCipher.seal(text, to: peer)
        try await relay.submit(
            KasiaPayload.contextualMessage(alias: try pair(peer).theirAlias, sealed: sealed, encoding: .base64).encoded,
            key: key)
    }

    /// Reads handshakes to us (a valid one adds the contact), then each contact's messages on
    /// our deterministic incoming alias for it.
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
            guard object?["type"] as? String == "handshake", let version = object?["version"] as? Int, version <= 1
            else {
                rejectedHandshakes += 1
                continue
            }
            contacts.insert(sender)
        }
        for peer in contacts.sorted(by: { $0.description < $1.description }) {
            var (cursor, seen) = (messageCursors[peer] ?? 0, self.seen)
            let rows = try await relay.rows(
                "contextual-messages/by-sender",
                ["address": peer.description, "alias": try pair(peer).myAlias.indexerQueryParameter], cursor: &cursor,
                seen: &seen)
            (messageCursors[peer], self.seen) = (cursor, seen)
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
