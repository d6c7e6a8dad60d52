import ChatHistory
import ChatTimeline
import Foundation
import KaspaSimNode
import TandemClient
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
}
