import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KaspaCrypto
import KaspaSimNode
import TandemMessaging
import TandemProfile
import TandemWallet
import Testing

extension KaspaChatTests {
    @Test("twenty messages sent back to back chain their change with no refusal; one block accepts them all")
    func twentyBackToBackSends() async throws {
        try await Self.withAliceAndBob { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            try await bob.sync()

            // When Alice sends twenty messages without waiting for a block
            let texts = (1...20).map { "burst \($0)" }
            var sent: [StoredMessage] = []
            for text in texts { sent.append(try await alice.send(text, to: bob.address)) }
            #expect(sent.allSatisfy { $0.status == .sent && $0.txID != nil })
            #expect(await network.node.read { $0.mempool.count } == 20)

            // Then one block accepts every one, and Bob reads each once, in order
            await network.node.mine()
            #expect(await network.node.read { $0.mempool.isEmpty })
            #expect(try await bob.sync().filter { $0.kind == .text }.map(\.text) == texts)
            try await alice.sync()
            let history = try await alice.history(with: bob.address)
            #expect(
                history.rows.filter { $0.direction == .outgoing && $0.kind == .text }.allSatisfy {
                    $0.status == .confirmed
                })
        }
    }

    @Test("another process turning a contact's real-time updates off reaches a running listen")
    func quietingFromAnotherProcess() async throws {
        try await Self.withAliceAndBob { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            try await bob.sync()
            var subscriptions = network.servers[0].switches.utxoSubscriptions.makeAsyncIterator()
            let listening = bob.listen(quietPeriod: .milliseconds(20), maxWait: .milliseconds(100))
            _ = await Self.nextSubscription(&subscriptions) { $0.contains(alice.address) }

            // When another store of the same profile (another process's) quiets Alice
            let elsewhere = try bob.profile.openContacts()
            try elsewhere.setRealtimeUpdatesDisabled(
                ContactAddress(alice.address), wallet: ContactAddress(bob.address), true)

            // Then Bob's session is reopened without her
            let reopened = await Self.nextSubscription(&subscriptions) { !$0.contains(alice.address) }
            #expect(reopened == [bob.address])
            withExtendedLifetime(listening) {}
        }
    }
}
