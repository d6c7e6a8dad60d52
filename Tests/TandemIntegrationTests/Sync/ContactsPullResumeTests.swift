import Contacts
import Foundation
import KaspaCrypto
import TandemSync
import Testing

/// A contacts pull cut off part way keeps what it merged: the state saved when the request
/// failed names the last merged page, so the next sync pulls only the records after it (issue 12
/// item 4, "resume after interruption"; the pull saves its state file less often since the
/// 10,000-record figure, and saves it when a request fails).
@Suite(.serialized) struct ContactsPullResumeTests {
    @Test func anInterruptedPullResumesAfterTheRecordsItMerged() async throws {
        let server = try await SyncConvergenceTests.startServer(databaseURL: nil)
        defer { server.stop() }
        let url = server.url
        let walletKey = PrivateKey.generate()
        let writer = try await SyncDevice(server: url, username: "rhea", walletKey: walletKey, signUp: true)
        let reader = try await SyncDevice(server: url, username: "rhea", walletKey: walletKey, signUp: false)
        defer {
            writer.directory.remove()
            reader.directory.remove()
        }
        let total = 30
        for index in 0..<total {
            let peer = ContactAddress(KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey))
            _ = try writer.contacts.add(peer, wallet: writer.wallet, alias: "peer \(index)")
        }
        #expect(try await writer.contactsSync().run().pushed == total)

        // Given a pull cut off after the session check and a few pages of 3 records
        let flaky = FlakyTransport(budget: 6, loseAnswers: false)
        await #expect(throws: SyncError.self) { _ = try await reader.contactsSync(flaky).run() }
        let merged = try reader.contactList().count
        #expect(merged > 0)
        #expect(merged < total)

        // Then the next sync pulls only what came after the merged pages, and both lists agree
        let resumed = try await reader.contactsSync().run()
        #expect(resumed.pulled == total - merged)
        #expect(resumed.pushed == 0)
        #expect(try reader.contactList() == writer.contactList())
    }
}
