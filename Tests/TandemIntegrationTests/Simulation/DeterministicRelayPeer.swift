import Foundation
import KasiaProtocol
import KaspaCrypto

/// A peer that routes by deterministic aliases, talking to the relay over plain HTTP: both
/// aliases derived from keys (seed 000 §1.1), handshakes above version 1 rejected (seed §7
/// item 4), sends with `theirAlias` and reads only `myAlias` (§1.3), base64 bodies. Two apps of
/// today (kasia-protocol §16):
/// - Kasia web's deterministic branch writes `ciph_msg:` and reads nothing else: a row under
///   `kchat:` is invisible to it, as its payload parser refuses that root. Its handshakes are
///   alias-less (§1.2, kasia-protocol §5.1).
/// - KaChat of today writes every payload under `kchat:` and reads both roots. Its handshakes
///   name its deterministic outgoing alias, with KaChat's snake_case duplicates.
actor DeterministicRelayPeer {
    enum Flavor: Sendable {
        case web
        case kachatToday

        var root: KasiaRoot { self == .web ? .ciphMsg : .kchat }
        /// Whether the app's parser reads a row under `root` (nil: the source did not say).
        func reads(root: String?) -> Bool { self == .kachatToday || root == nil || root == "ciph_msg" }
    }

    let key = PrivateKey.generate()
    nonisolated let address: KaspaAddress
    nonisolated let flavor: Flavor
    private let relay: RawRelay
    /// The roots of the rows from Tandem this peer saw, readable or not, in order.
    private(set) var roots: [String] = []
    /// Rows this peer's parser could not read (a web peer given `kchat:`).
    private(set) var unreadable = 0
    private(set) var contacts: Set<KaspaAddress> = []
    private(set) var inbox: [KaspaAddress: [String]] = [:]
    private(set) var rejectedHandshakes = 0
    private var handshakeCursor: UInt64 = 0
    private var messageCursors: [KaspaAddress: UInt64] = [:]
    private var seen: Set<String> = []

    init(relay: RawRelay, flavor: Flavor = .web) {
        self.relay = relay
        self.flavor = flavor
        address = KaspaAddress(publicKey: key.xOnlyPublicKey)
    }

    func pair(_ peer: KaspaAddress) throws -> AliasPair { try AliasPair(privateKey: key, peer: peer) }

    func sendHandshake(to peer: KaspaAddress, isResponse: Bool) async throws {
        contacts.insert(peer)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let text: String
        switch flavor {
        case .web:
            text =
                isResponse
                ? #"{"type":"handshake","timestamp":\#(now),"version":1,"isResponse":true}"#
                : #"{"type":"handshake","timestamp":\#(now),"version":1}"#
        case .kachatToday:
            let alias = try pair(peer).theirAlias.rawValue
            let response = isResponse ? #","isResponse":true,"is_response":true"# : ""
            text =
                #"{"type":"handshake","alias":"\#(alias)","timestamp":\#(now),"conversationId":"0123456789ab","#
                + #""version":1,"recipientAddress":"\#(peer)","sendToRecipient":true,"#
                + #""conversation_id":"0123456789ab","recipient_address":"\#(peer)","send_to_recipient":true"#
                + response + "}"
        }
        try await relay.submit(
            KasiaPayload.handshake(sealed: try KasiaCipher.seal(text, to: peer)).encoded(root: flavor.root), key: key,
            receiver: peer, amount: 20_000_000)
    }

    func send(_ text: String, to peer: KaspaAddress) async throws {
        contacts.insert(peer)
        let sealed = try KasiaCipher.seal(text, to: peer)
        try await relay.submit(
            KasiaPayload.contextualMessage(alias: try pair(peer).theirAlias, sealed: sealed, encoding: .base64)
                .encoded(root: flavor.root), key: key)
    }

    /// Reads handshakes to us (a valid one adds the contact), then each contact's messages on
    /// our deterministic incoming alias for it.
    func poll() async throws {
        var (cursor, seen) = (handshakeCursor, self.seen)
        let handshakeRows = try await relay.rows(
            "handshakes/by-receiver", ["address": address.description], cursor: &cursor, seen: &seen)
        (handshakeCursor, self.seen) = (cursor, seen)
        for row in handshakeRows {
            roots.append(row["root"] as? String ?? "?")
            guard flavor.reads(root: row["root"] as? String) else {
                unreadable += 1
                continue
            }
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
                roots.append(row["root"] as? String ?? "?")
                guard flavor.reads(root: row["root"] as? String) else {
                    unreadable += 1
                    continue
                }
                guard let body = RawRelay.bytes(row, "message_payload"),
                    let sealed = Data(base64Encoded: Data(body)),
                    let text = try? KasiaCipher.open(Array(sealed), using: key)
                else { continue }
                inbox[peer, default: []].append(text)
            }
        }
    }
}
