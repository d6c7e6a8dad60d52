import ChatHistory
import ChatTimeline
import Foundation
import KaspaCrypto
import TandemAPI
import TandemAccounts
import TandemMessaging
import TandemProfile
import TandemSync
import TestSupport
import Testing

/// A person's chat history on two of their devices (issue 48 item 1): one `tandem serve` on
/// loopback relays the chat and keeps the sealed records, real SQLite files on every side.
@Suite(.serialized) struct ChatHistorySyncTests {
    @Test(arguments: RelayBackend.available)
    func bothDevicesShowTheWholeHistoryOnce(backend: RelayBackend) async throws {
        try await backend.withDatabase { databaseURL in try await twoDevices(databaseURL) }
    }

    /// Anna's laptop chats with Bob; her phone (same seed, same account) reads the relay and then
    /// syncs: it shows her sent texts, once each, beside what it read itself; a conversation she
    /// deletes on the phone goes from the laptop at its next sync, and the server keeps no text.
    func twoDevices(_ databaseURL: String?) async throws {
        let server = try await SyncConvergenceTests.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let seed = PrivateKey.generate()
        let laptopDevice = try await SyncDevice(server: server.url, username: "anna", walletKey: seed, signUp: true)
        let phoneDevice = try await SyncDevice(server: server.url, username: "anna", walletKey: seed, signUp: false)
        let (bob, bobDirectory) = try MessagingRelayTests.messenger(server.url)
        defer {
            laptopDevice.directory.remove()
            phoneDevice.directory.remove()
            bobDirectory.remove()
        }
        let laptop = try Messenger(profile: laptopDevice.profile, server: server.url)
        let phone = try Messenger(profile: phoneDevice.profile, server: server.url)
        let canary = "canary-\(UUID().uuidString)"

        try await laptop.startConversation(with: bob.address)
        try await bob.sync()
        for index in 0..<6 {
            if index % 3 == 2 {
                try await bob.send("bob #\(index) \(canary)", to: laptop.address)
            } else {
                try await laptop.send("anna #\(index) \(canary)", to: bob.address)
            }
        }
        try await phone.sync()
        try await laptop.sync()
        // Before any history sync the phone has Anna's messages without their texts.
        let before = MessagingRelayTests.texts(try await MessagingRelayTests.allMessages(phone, with: bob.address))
        #expect(before.filter { $0.direction == .outgoing && $0.body == nil }.count == 4)

        let laptopReport = try await chatSync(laptopDevice)
        #expect(laptopReport.pushed >= 6 && laptopReport.unreadable == 0)
        let phoneReport = try await chatSync(phoneDevice)
        #expect(phoneReport.pulled >= 6 && phoneReport.changed >= 4)
        _ = try await chatSync(laptopDevice)
        #expect(try await chatSync(phoneDevice).pushed == 0)
        #expect(try await chatSync(laptopDevice).pushed == 0)

        let expected = (0..<6).map { $0 % 3 == 2 ? "bob #\($0) \(canary)" : "anna #\($0) \(canary)" }
        for messenger in [laptop, phone] {
            let rows = MessagingRelayTests.texts(
                try await MessagingRelayTests.allMessages(messenger, with: bob.address))
            #expect(rows.compactMap(MessagingRelayTests.text) == expected)
            #expect(Set(rows.compactMap(\.txID)).count == rows.count)
        }
        // The server holds sealed boxes only.
        #expect(try await !serverHolds(canary, laptopDevice))

        // Anna deletes the conversation on her phone; the laptop follows at its next sync.
        #expect(try await phone.deleteConversation(with: bob.address) >= 6)
        _ = try await chatSync(phoneDevice)
        _ = try await chatSync(laptopDevice)
        #expect(try await laptop.history(with: bob.address).rows.isEmpty)
        // A read of the relay brings nothing back; a new message from Bob starts again.
        try await laptop.sync()
        #expect(try await laptop.history(with: bob.address).rows.isEmpty)
        try await bob.send("bob again \(canary)", to: laptop.address)
        try await laptop.sync()
        let again = try await MessagingRelayTests.allMessages(laptop, with: bob.address)
        #expect(again.compactMap(MessagingRelayTests.text) == ["bob again \(canary)"])
    }

    func chatSync(_ device: SyncDevice) async throws -> ChatHistorySyncReport {
        var engine = try device.profile.chatHistorySync(server: device.server)
        engine.retry = .none
        engine.pageSize = 4
        engine.batchSize = 3
        return try await engine.run()
    }

    /// Whether any record the server returns holds `text` in the clear.
    func serverHolds(_ text: String, _ device: SyncDevice) async throws -> Bool {
        let client = AccountClient(server: device.server, profile: device.profile, transport: URLSessionTransport())
        let page = try await client.sealedRecords(.chatHistory, after: nil, limit: 1000)
        return page.records.contains { record in
            Data(base64Encoded: record.box).map { String(decoding: $0, as: UTF8.self).contains(text) } ?? true
        }
    }
}
