import ChatHistory
import ChatTimeline
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KaspaCrypto
import TandemChatApp
import TandemMessaging
import TestSupport
import Testing

/// `tandem app`'s JSON API (issue 47 item 2) over a real relay: the page's requests are the
/// library's calls, a chat started there reaches a peer, the history pages back by its cursor
/// without a gap or a repeat, contact edits land in the profile's stores, and a malformed
/// request is a 4xx that says why, never a 500.
@Suite(.serialized) struct ChatAppAPITests {
    /// Runs `body` against a live app for a fresh profile on `server`.
    static func withApp(
        _ server: URL, _ body: @escaping @Sendable (ChatAppSession, Messenger) async throws -> Void
    ) async throws {
        let (messenger, directory) = try MessagingRelayTests.messenger(server)
        defer { directory.remove() }
        let access = ChatAppAccess()
        let app = buildChatApp(messenger: messenger, access: access)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port) { raw in
                try await body(try await ChatAppSession.open(raw, access: access), messenger)
            }
        }
    }

    @Test func malformedRequestsAreRefusedWithAReasonAndNeverA500() async throws {
        let server = try await InProcessServer.start()
        defer { server.stop() }
        let testnet = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey, network: .testnet)
        let peer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey).description
        try await Self.withApp(server.url) { app, _ in
            let cases: [(String, Data, HTTPResponse.Status)] = [
                ("/api/messages", Data("{".utf8), .badRequest),
                ("/api/messages", Data("[]".utf8), .badRequest),
                ("/api/messages", Data(#"{"to":"\#(peer)"}"#.utf8), .badRequest),
                ("/api/messages", Data(#"{"to":"\#(peer)","text":5}"#.utf8), .badRequest),
                ("/api/messages", Data(#"{"to":"kaspa:nope","text":"hi"}"#.utf8), .badRequest),
                ("/api/messages", Data(#"{"to":"\#(testnet)","text":"hi"}"#.utf8), .badRequest),
                ("/api/messages", Data(#"{"to":"\#(peer)","text":"  \n"}"#.utf8), .badRequest),
                ("/api/messages", Data(repeating: 0x20, count: 70_000), .contentTooLarge),
                ("/api/messages/retry", Data(#"{"id":"not-a-uuid"}"#.utf8), .badRequest),
                ("/api/messages/retry", Data(#"{"id":"\#(UUID().uuidString)"}"#.utf8), .notFound),
                ("/api/chats", Data(#"{"address":""}"#.utf8), .badRequest),
                ("/api/contacts", Data(#"{"address":"\#(peer)","alias":"a\u0007b"}"#.utf8), .badRequest),
                ("/api/contacts/update", Data(#"{"address":"\#(peer)","muted":"yes"}"#.utf8), .badRequest),
                ("/api/payments", Data(#"{"to":"\#(peer)","amount":"1.123456789"}"#.utf8), .badRequest),
                ("/api/payments", Data(#"{"to":"\#(peer)","amount":"0"}"#.utf8), .badRequest),
                // A relay profile moves no money: the library's own refusal.
                ("/api/payments", Data(#"{"to":"\#(peer)","amount":"1"}"#.utf8), .badRequest),
                ("/api/read", Data(#"{"with":"kaspa:"}"#.utf8), .badRequest),
            ]
            for (path, body, status) in cases {
                let answer = try await app.post(path, raw: body)
                #expect(answer.status == status, "\(path) \(String(decoding: body.prefix(80), as: UTF8.self))")
                #expect(answer.error?.isEmpty == false, "\(path): no reason given")
            }
            for path in [
                "/api/messages", "/api/messages?with=\(peer)&limit=0", "/api/messages?with=\(peer)&limit=201",
                "/api/messages?with=\(peer)&before=1:2", "/api/warning?with=nope",
            ] {
                let answer = try await app.get(path)
                #expect(answer.status == .badRequest, "\(path)")
            }
            #expect(try await app.get("/api/wallet")["kaspa"] as? Bool == false)
        }
    }

    @Test func aChatStartedInTheAppReachesThePeerAndItsHistoryPagesBackWithoutGapOrRepeat() async throws {
        let server = try await InProcessServer.start()
        defer { server.stop() }
        let (bob, bobDirectory) = try MessagingRelayTests.messenger(server.url)
        defer { bobDirectory.remove() }
        try await Self.withApp(server.url) { app, alice in
            let me = try await app.get("/api/me")
            #expect(me["address"] as? String == alice.address.description && me["kaspa"] as? Bool == false)
            let started = try await app.post("/api/chats", ["address": bob.address.description])
            #expect(started.status == .ok && started["address"] as? String == bob.address.description)
            #expect(try await bob.sync().contains { $0.kind == .handshake && $0.sender == alice.address })
            try await bob.send("hi from bob", to: alice.address)

            var sent: [String] = []
            for index in 0..<120 {
                let text = "line \(index)"
                let answer = try await app.post("/api/messages", ["to": bob.address.description, "text": text])
                let message = try #require(answer["message"] as? [String: Any], "\(answer.json)")
                #expect(message["direction"] as? String == "out")
                #expect(["sent", "confirmed"].contains(message["status"] as? String))
                sent.append(text)
            }
            _ = try await alice.sync()

            // Back through the pages, each strictly older than the one before.
            var rows: [[String: Any]] = []
            var before: String?
            var pages = 0
            repeat {
                var path = "/api/messages?with=\(bob.address)&limit=50"
                if let before { path += "&before=\(before)" }
                let page = try await app.get(path)
                #expect(page.status == .ok)
                let messages = try #require(page["messages"] as? [[String: Any]])
                rows = messages + rows
                pages += 1
                before = (page["hasOlder"] as? Bool == true) ? page["before"] as? String : nil
            } while before != nil && pages < 10
            let cursors = rows.compactMap { $0["cursor"] as? String }.compactMap(MessageKey.init(cursorText:))
            #expect(cursors.count == rows.count && cursors == cursors.sorted() && Set(cursors).count == cursors.count)
            let texts = rows.filter { $0["kind"] as? String == "text" }
            #expect(texts.filter { $0["direction"] as? String == "out" }.compactMap { $0["text"] as? String } == sent)
            #expect(
                texts.filter { $0["direction"] as? String == "in" }.compactMap { $0["text"] as? String } == [
                    "hi from bob"
                ])
            #expect(pages == 3)

            let received = try await bob.sync().filter { $0.kind == .text }.map(\.text)
            #expect(received == sent)
        }
    }

    @Test func contactEditsLandInTheProfilesStores() async throws {
        let server = try await InProcessServer.start()
        defer { server.stop() }
        let peer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey).description
        try await Self.withApp(server.url) { app, messenger in
            func row() async throws -> [String: Any]? {
                let list = try await app.get("/api/conversations")["conversations"] as? [[String: Any]]
                return list?.first { $0["address"] as? String == peer }
            }
            #expect(try await app.post("/api/contacts", ["address": peer, "alias": " Rhea "]).status == .ok)
            #expect(try await row()?["alias"] as? String == "Rhea")
            let update = try await app.post(
                "/api/contacts/update", ["address": peer, "alias": "Phoebe", "muted": true, "realtime": false])
            #expect(update.status == .ok)
            let edited = try #require(try await row())
            #expect(edited["alias"] as? String == "Phoebe" && edited["muted"] as? Bool == true)
            #expect(edited["realtime"] as? Bool == false)
            let summary = try #require(
                try await messenger.conversations().first { $0.contact.address.description == peer })
            #expect(summary.contact.notificationsMuted && summary.contact.realtimeUpdatesDisabled)
            #expect(try await app.post("/api/contacts/delete", ["address": peer]).status == .ok)
            #expect(try await row() == nil)
        }
    }
}
