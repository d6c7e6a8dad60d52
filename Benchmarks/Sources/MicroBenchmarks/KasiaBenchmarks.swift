import Foundation
import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemBasics

/// Issue 3's figures: payload + handshake parsing rate; watched-set build and legacy migration
/// at 10,000 contacts.
public enum KasiaBenchmarks {
    /// Envelope and handshake parsing, against Foundation's JSON parser on the same handshakes.
    public static func parsing(samples: Int = 11) throws -> BenchReport {
        try parsingSuite().report(samples: samples)
    }

    public static func parsingSuite() throws -> BenchSuite {
        let recipient = PrivateKey.generate().publicKey
        let sealed = try KasiaCipher.seal(String(repeating: "x", count: 120), to: recipient)
        let alias = Alias.random()
        let payloads: [[UInt8]] = [
            KasiaPayload.handshake(sealed: sealed).encoded(root: .ciphMsg),
            KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded(root: .ciphMsg),
            KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .hex).encoded(root: .ciphMsg),
            KasiaPayload.payment(sealed: sealed, form: .kachat).encoded(root: .ciphMsg),
            KasiaPayload.selfStash(scope: "saved_handshake", sealed: sealed).encoded(root: .ciphMsg),
        ]
        let handshakes = [
            #"{"type":"handshake","alias":"a1b2c3d4e5f6","timestamp":1735689600000,"version":1,"recipientAddress":"kaspa:qrlnrdnkme58avh8mhcrr8rpj3tgfuj5qp70d6355s424yceaeqsjxklulud6","sendToRecipient":true}"#,
            #"{"type":"handshake","timestamp":1735689600000,"version":1,"isResponse":true}"#,
        ]
        let handshakeData = handshakes.map { Data($0.utf8) }
        let iterations = 2_000
        return BenchSuite(
            title: "Kasia payload parsing (7 payloads per op; payloads/s = 7 × ops/s)",
            baseline: BenchCase("JSONSerialization, 2 handshakes", iterations: iterations) {
                for data in handshakeData { blackHole(try? JSONSerialization.jsonObject(with: data)) }
            },
            others: [
                BenchCase("5 envelopes + 2 handshakes (KasiaPayload, HandshakePayload)", iterations: iterations) {
                    for payload in payloads { blackHole(try? KasiaPayload(parsing: payload)) }
                    for text in handshakes { blackHole(try? HandshakePayload(decoding: text)) }
                }
            ])
    }

    /// Routing at `contacts` contacts: alias derivation, migration into SQLite, watched set.
    public static func routing(contacts: Int = 10_000, samples: Int = 3) throws -> BenchReport {
        try routingSuite(contacts: contacts).report(samples: samples)
    }

    public static func routingSuite(contacts: Int = 10_000) throws -> BenchSuite {
        let me = PrivateKey.generate()
        let wallet = KaspaAddress(publicKey: me.xOnlyPublicKey)
        let peers = (0..<contacts).map { _ in PrivateKey.generate() }
        let peerAddresses = peers.map { KaspaAddress(publicKey: $0.xOnlyPublicKey) }
        var conversation: [String: [String]] = [:]
        var ours: [String: [String]] = [:]
        for (index, peer) in peerAddresses.enumerated() where index % 2 == 0 {
            conversation[peer.description] = [Alias.random().rawValue]
            ours[peer.description] = [Alias.random().rawValue]
        }
        let snapshotJSON = try JSONSerialization.data(withJSONObject: [
            "conversationAliases": conversation, "ourAliases": ours,
            "kachat_contacts_wallet_\(wallet)": peerAddresses.map { ["address": $0.description] },
        ])
        let peerPublicKeys = peerAddresses.compactMap { try? $0.publicKey() }

        var table = RoutingTable()
        for address in peerAddresses {
            table[address] = try ConversationRoutingState(
                contact: address, privateKey: me,
                legacyIncoming: [Alias.random()], now: UnixMillis(1))
        }
        let policy = RoutingPolicy(stage: .c)
        let snapshot = try LegacySnapshot(json: snapshotJSON, wallet: wallet)
        return BenchSuite(
            title: "Routing at \(contacts) contacts",
            baseline: BenchCase("\(contacts) raw ECDH (the derivation floor)", iterations: 1) {
                for key in peerPublicKeys { blackHole(try me.sharedSecretFromKeyAgreement(with: key)) }
            },
            others: [
                BenchCase("migrate \(contacts) legacy contacts into SQLite", iterations: 1) {
                    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                        "tandem-bench-\(UUID().uuidString)")
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: directory) }
                    let store = try RoutingStore(path: directory.appendingPathComponent("routing.sqlite").path)
                    let snapshot = try LegacySnapshot(json: snapshotJSON, wallet: wallet)
                    blackHole(try store.migrateLegacy(snapshot, privateKey: me, now: UnixMillis(1)))
                },
                BenchCase("  of which: parse the snapshot", iterations: 1) {
                    blackHole(try LegacySnapshot(json: snapshotJSON, wallet: wallet))
                },
                BenchCase("  of which: derive \(contacts) alias pairs", iterations: 1) {
                    for entry in snapshot.contacts.values { blackHole(try AliasPair(privateKey: me, peer: entry.key)) }
                },
                BenchCase("watched alias set of \(contacts) contacts (stage C)", iterations: 1) {
                    blackHole(table.watchedIncomingAliases(policy: policy, now: UnixMillis(2)))
                },
            ])
    }
}
