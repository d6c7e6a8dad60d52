import ChatHistory
import ChatTimeline
import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemBasics
import TandemMessaging
import TandemWallet
import TestSupport
import Testing

/// Issue 15 item 4 end to end: a profile that sends signed Kaspa transactions instead of
/// relay-signed payloads, through one real `tandem serve` on loopback, to a peer who syncs.
@Suite(.serialized) struct MessagingKaspaTests {
    static func utxo(for address: KaspaAddress, amount: UInt64, seed: UInt8) -> KaspaUtxoEntry {
        KaspaUtxoEntry(
            address: address, outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: seed, count: 32), index: 0),
            amount: amount, scriptPublicKey: KaspaScriptPublicKey(address: address), blockDAAScore: 1)
    }

    @Test func handshakeStashAndMessageTravelAsKaspaTransactions() async throws {
        let server = try await MessagingRelayTests.startServer()
        defer { server.stop() }
        let (alice, aliceDirectory) = try MessagingRelayTests.messenger(server.url)
        let (bob, bobDirectory) = try MessagingRelayTests.messenger(server.url)
        defer {
            aliceDirectory.remove()
            bobDirectory.remove()
        }
        await alice.useKaspaTransactions(spending: [Self.utxo(for: alice.address, amount: 300_000_000, seed: 1)])

        // The handshake pays Bob 0.2 KAS; its change funds the self-stash and then the message.
        let receipt = try await alice.startConversation(with: bob.address)
        let pool = try #require(await alice.kaspaUTXOPool)
        #expect(pool.count == 1)
        #expect(pool.first.map { Hex.encode($0.outpoint.transactionID) } != receipt.txID)
        let stored = try await alice.send("hello over Kaspa", to: bob.address)
        #expect(stored.status == .sent)
        let spent = try #require(await alice.kaspaUTXOPool?.first)
        #expect(Hex.encode(spent.outpoint.transactionID) == stored.txID?.rawValue)

        let incoming = try await bob.sync()
        #expect(incoming.map(\.kind) == [.handshake, .text])
        // History holds the handshake's placeholder row too (issue 11 item 5); the texts are the messages.
        let rows = try await MessagingRelayTests.allMessages(bob, with: alice.address).filter { $0.kind == .text }
        #expect(rows.compactMap(MessagingRelayTests.text) == ["hello over Kaspa"])
        #expect(rows.first?.txID == stored.txID)
    }
}
