import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemMessaging
import TandemProfile
import TandemWallet
import TestSupport
import Testing

/// The messaging service end to end: two profiles in this process, one real `tandem serve` on
/// loopback, real SQLite files on both sides (issue 11 "Tests").
@Suite(.serialized) struct MessagingRelayTests {
    /// A fresh profile with a new wallet key, and its messenger for `server`.
    static func messenger(_ server: URL, key: PrivateKey? = nil) throws -> (Messenger, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let profile = Profile(directory: directory.url.appendingPathComponent("profile"))
        if let key { try profile.importWalletKey(key) } else { try profile.createWalletKey() }
        return (try Messenger(profile: profile, server: server), directory)
    }

    /// Every stored text with `peer`, oldest first, paging back with the keyset cursor.
    static func allMessages(_ messenger: Messenger, with peer: KaspaAddress) async throws -> [StoredMessage] {
        var rows: [StoredMessage] = []
        var page = try await messenger.history(with: peer, limit: 30)
        rows = page.rows
        while page.hasMore, let boundary = page.boundary {
            page = try await messenger.history(with: peer, limit: 30, before: boundary)
            rows = page.rows + rows
        }
        return rows
    }

    static func text(_ row: StoredMessage) -> String? { row.body.map { String(decoding: $0, as: UTF8.self) } }

    static func startServer(databaseURL: String? = nil) async throws -> InProcessServer {
        try await InProcessServer.start(databaseURL: databaseURL)
    }

    /// The rows that carry texts (handshakes add placeholder rows, kasia-protocol §8).
    static func texts(_ rows: [StoredMessage]) -> [StoredMessage] { rows.filter { $0.kind == .text } }

    @Test(arguments: RelayBackend.available)
    func twoProfilesExchangeAHundredInterleavedMessagesAndTheServerHoldsNoPlaintext(backend: RelayBackend)
        async throws
    {
        try await backend.withDatabase { databaseURL in
            try await exchangeAHundredMessages(databaseURL: databaseURL)
        }
    }

    func exchangeAHundredMessages(databaseURL: String?) async throws {
        // Given a relay and two fresh profiles, Alice having sent Bob a handshake
        let server = try await Self.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let (alice, aliceDirectory) = try Self.messenger(server.url)
        let (bob, bobDirectory) = try Self.messenger(server.url)
        defer {
            aliceDirectory.remove()
            bobDirectory.remove()
        }
        try await alice.startConversation(with: bob.address)
        let greeting = try await bob.sync()
        #expect(greeting.map(\.kind) == [.handshake])

        // When they send 100 interleaved messages, syncing now and then
        let canary = UUID().uuidString
        var sent: [String] = []
        for index in 0..<100 {
            let fromAlice = index % 3 != 2
            let text = "\(fromAlice ? "alice" : "bob") #\(index) \(canary) ✉️"
            try await (fromAlice ? alice : bob).send(text, to: fromAlice ? bob.address : alice.address)
            sent.append(text)
            if index % 10 == 9 {
                try await alice.sync()
                try await bob.sync()
            }
        }
        try await alice.sync()
        try await bob.sync()

        // Then both histories hold exactly the 100 texts in send order, each once, both directions
        for (me, peer, name) in [(alice, bob.address, "alice"), (bob, alice.address, "bob")] {
            let all = try await Self.allMessages(me, with: peer)
            #expect(all.first?.kind == .handshake, "\(name): the conversation opens with the handshake's row")
            let rows = Self.texts(all)
            #expect(rows.compactMap(Self.text) == sent, "\(name)")
            #expect(Set(rows.compactMap(\.txID)).count == 100)
            #expect(rows.allSatisfy { ($0.direction == .outgoing) == (Self.text($0)?.hasPrefix(name) ?? false) })
            #expect(rows.allSatisfy { $0.status == .sent || $0.status == .confirmed })
            let conversations = try await me.conversations()
            #expect(conversations.map(\.contact.address.address) == [peer])
            #expect(conversations.first?.contact.lastMessageAt != nil)
            #expect(conversations.first?.lastMessage.flatMap(Self.text) == sent.last)
        }

        // And the server's database never saw a plaintext
        if let databaseURL {
            let stored = try await RelayBackend.psql(databaseURL, "SELECT count(*) FROM kasia_tx")
            let leaked = try await RelayBackend.psql(
                databaseURL,
                """
                SELECT count(*) FROM kasia_tx WHERE position(convert_to('\(canary)', 'UTF8') IN payload) > 0
                    OR position(convert_to('\(canary)', 'UTF8') IN body) > 0
                """)
            #expect(Int(stored) ?? 0 > 100)
            #expect(leaked == "0")
        } else {
            let files = try FileManager.default.contentsOfDirectory(
                at: server.dataDirectory.url, includingPropertiesForKeys: nil)
            let bytes = try files.filter { !$0.hasDirectoryPath }.map { try Data(contentsOf: $0) }
            #expect(!bytes.isEmpty)
            #expect(bytes.allSatisfy { $0.range(of: Data(canary.utf8)) == nil })
        }
    }

    @Test func aResubmissionIsOneRowWithTheSameReceipt() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let relay = RelayClient(server: server.url, transport: URLSessionTransport())
        let key = PrivateKey.generate()
        let payload =
            Array("ciph_msg:1:comm:0123456789ab:".utf8)
            + Array(Data(repeating: 7, count: 80).base64EncodedString().utf8)
        let submission = try RelaySubmission.signed(payload: payload, by: key, nonce: 42)

        let first = try await relay.submit(submission)
        let second = try await relay.submit(submission)

        #expect(first == second)
        var cursor = IndexerCursor.start
        let rows = try await relay.indexer.contextualMessages(
            bySender: submission.sender,
            aliasHex: Data("0123456789ab".utf8).map { String(format: "%02x", $0) }.joined(),
            after: &cursor)
        #expect(rows.map(\.txID) == [first.txID])
    }

    @Test(arguments: RelayBackend.available)
    func restoreOnASecondDeviceReproducesRoutingAndIncomingHistory(backend: RelayBackend) async throws {
        try await backend.withDatabase { databaseURL in try await restoreOnASecondDevice(databaseURL: databaseURL) }
    }

    func restoreOnASecondDevice(databaseURL: String?) async throws {
        // Given Alice and Bob with a conversation both ways
        let server = try await Self.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let key = PrivateKey.generate()
        let (alice, aliceDirectory) = try Self.messenger(server.url, key: key)
        let (bob, bobDirectory) = try Self.messenger(server.url)
        defer {
            aliceDirectory.remove()
            bobDirectory.remove()
        }
        try await alice.send("hello bob", to: bob.address)
        try await bob.sync()
        try await bob.send("hello alice", to: alice.address)
        try await bob.send("how are you?", to: alice.address)
        try await alice.sync()

        // When a second device holds only Alice's wallet key and restores
        let (device, deviceDirectory) = try Self.messenger(server.url, key: key)
        defer { deviceDirectory.remove() }
        try await device.restore()

        // Then it knows Bob, reads what Bob sent, and sees its own message as sent elsewhere
        let original = try await Self.allMessages(alice, with: bob.address)
        let restored = try await Self.allMessages(device, with: bob.address)
        #expect(restored.map(\.txID) == original.map(\.txID))
        #expect(restored.filter { $0.direction == .incoming }.compactMap(Self.text) == ["hello alice", "how are you?"])
        #expect(Self.texts(restored).filter { $0.direction == .outgoing }.map(\.body) == [nil])
        #expect(restored.filter { $0.kind == .handshake }.count == original.filter { $0.kind == .handshake }.count)
        #expect(try await device.conversations().map(\.contact.address.address) == [bob.address])

        // And it can carry on the conversation on the same aliases
        try await device.send("restored!", to: bob.address)
        let arrived = try await bob.sync()
        #expect(arrived.map(\.text) == ["restored!"])
    }

    @Test func listenDeliversMessagesSentAfterItStartedOnceEach() async throws {
        // Given Bob has asked Alice to chat, and Alice listens
        let server = try await Self.startServer()
        defer { server.stop() }
        let (alice, aliceDirectory) = try Self.messenger(server.url)
        let (bob, bobDirectory) = try Self.messenger(server.url)
        defer {
            aliceDirectory.remove()
            bobDirectory.remove()
        }
        try await bob.startConversation(with: alice.address)

        let kinds = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                var iterator = alice.listen().makeAsyncIterator()
                var seen: [String] = []
                // When the handshake has arrived, Bob sends twice
                seen.append(try await iterator.next()?.kind.rawValue ?? "end")
                try await bob.send("live one", to: alice.address)
                seen.append(try await iterator.next()?.text ?? "end")
                try await bob.send("live two", to: alice.address)
                seen.append(try await iterator.next()?.text ?? "end")
                return seen
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return ["timed out"]
            }
            let first = try await group.next() ?? []
            group.cancelAll()
            return first
        }

        // Then each arrives once, in order, with nothing repeated across sync and stream
        #expect(kinds == ["handshake", "live one", "live two"])
    }

    @Test func theStreamCarriesARowSubmittedAfterItConnected() async throws {
        // Given a stream watching one alias on the real relay
        let server = try await Self.startServer()
        defer { server.stop() }
        let url = server.url
        let aliasHex = Data("0123456789ab".utf8).map { String(format: "%02x", $0) }.joined()
        let stream = RelayEventStream(server: url, transport: URLSessionEventStreamTransport(), clock: SystemClock())
        let submission = try RelaySubmission.signed(
            payload: Array("ciph_msg:1:comm:0123456789ab:".utf8)
                + Array(Data(repeating: 1, count: 64).base64EncodedString().utf8),
            by: PrivateKey.generate(), nonce: 7)

        // When a first row fixes the resume point and a second is submitted while the stream is open
        let first = try await RelayClient(server: url, transport: URLSessionTransport()).submit(
            try RelaySubmission.signed(
                payload: Array("ciph_msg:1:comm:0123456789ab:".utf8)
                    + Array(Data(repeating: 2, count: 64).base64EncodedString().utf8),
                by: PrivateKey.generate(), nonce: 1))
        let received = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for try await event in stream.events(
                    aliasHexes: [aliasHex], addresses: [], lastEventID: String(first.blockTime))
                {
                    return event.txID
                }
                return nil
            }
            group.addTask {
                _ = try await RelayClient(server: url, transport: URLSessionTransport()).submit(submission)
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let txID = try await group.next() ?? nil
            group.cancelAll()
            return txID
        }

        // Then the stream delivers exactly the new row, not the one before its Last-Event-ID
        #expect(received == submission.digest(payloadBytes: try Hex.decode(submission.payload)).txID)
    }

    @Test func aFailedSendStaysFailedUnderItsUUIDAndARetryPromotesTheSameRow() async throws {
        // Given Alice has greeted Bob, then loses the relay
        let server = try await Self.startServer()
        defer { server.stop() }
        let (alice, aliceDirectory) = try Self.messenger(server.url)
        let (bob, bobDirectory) = try Self.messenger(server.url)
        defer {
            aliceDirectory.remove()
            bobDirectory.remove()
        }
        try await alice.startConversation(with: bob.address)
        let offline = try Messenger(profile: alice.profile, server: try #require(URL(string: "http://127.0.0.1:9")))

        // When a send fails
        await #expect(throws: MessagingError.self) { try await offline.send("kept safe", to: bob.address) }

        // Then the row is stored as failed with its text, and a retry sends that same row
        let failed = try #require(try await alice.history(with: bob.address).rows.last)
        #expect(failed.status == .failed)
        #expect(failed.txID == nil)
        #expect(Self.text(failed) == "kept safe")
        let sent = try await alice.retry(failed.id)
        #expect(sent.id == failed.id)
        #expect(sent.status == .sent)
        #expect(Self.texts(try await alice.history(with: bob.address).rows).count == 1)
        try await bob.sync()
        #expect(Self.texts(try await bob.history(with: alice.address).rows).compactMap(Self.text) == ["kept safe"])
    }
}

extension MessagingRelayTests {
    @Test func aPaymentMemoIsStoredAndShownWithItsAmount() async throws {
        // Given Bob pays Alice 1.5 KAS with a KaChat memo (kasia-protocol §5.3)
        let server = try await Self.startServer()
        defer { server.stop() }
        let (alice, aliceDirectory) = try Self.messenger(server.url)
        defer { aliceDirectory.remove() }
        let bobKey = PrivateKey.generate()
        let memo = #"{"amount":150000000,"message":"for lunch","timestamp":1800000000000,"type":"payment","version":1}"#
        let sealed = try KasiaCipher.seal(memo, to: alice.address)
        let submission = try RelaySubmission.signed(
            payload: KasiaPayload.payment(sealed: sealed, form: .kachat).encoded(root: .ciphMsg), by: bobKey,
            receiver: alice.address, amount: 150_000_000, nonce: 3)
        _ = try await RelayClient(server: server.url, transport: URLSessionTransport()).submit(submission)

        // When Alice syncs
        let arrived = try await alice.sync()

        // Then the memo arrives as a payment, is stored in Bob's conversation, and Bob is a contact
        let bob = KaspaAddress(publicKey: bobKey.xOnlyPublicKey)
        #expect(arrived.map(\.kind) == [.payment])
        #expect(arrived.first?.amountSompi == 150_000_000)
        #expect(arrived.first?.text == "for lunch")
        let rows = try await alice.history(with: bob).rows
        #expect(rows.map(\.kind) == [.payment])
        #expect(try await alice.conversations().map(\.contact.address.address) == [bob])
        #expect(try await alice.sync().isEmpty)
    }
}
