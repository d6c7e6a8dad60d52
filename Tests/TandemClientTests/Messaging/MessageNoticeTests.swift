import Foundation
import KaspaCrypto
import TandemMessaging
import TandemProfile
import TestSupport
import Testing

/// Issue 48 item 3: which new messages deserve a notification, and what it says — decided in the
/// library, so `chat listen --notify`, `chat ui` and an app notify alike.
@Suite struct MessageNoticeTests {
    @Test func onlyAPeersMessageOutsideTheOpenConversationFromAnUnmutedContactNotifies() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let profile = try ProfileMessengerTests.profile(scratch)
        let messenger = try profile.messenger(relay: try #require(URL(string: "http://127.0.0.1:9")))
        let (bob, carol, stranger) = (peer(), peer(), peer())
        try await messenger.addContact(bob, alias: "Bob")
        try await messenger.addContact(carol, alias: "Carol")
        try await messenger.setMuted(carol, true)
        func message(_ kind: IncomingMessage.Kind, from sender: KaspaAddress, _ text: String = "see you at 8")
            -> IncomingMessage
        {
            IncomingMessage(
                kind: kind, id: nil, txID: "t", sender: sender, text: text, blockTime: 1, amountSompi: 150_000_000)
        }

        #expect(
            messenger.notice(for: message(.text, from: bob))
                == MessageNotice(peer: bob, title: "Bob", body: "new message"))
        #expect(messenger.notice(for: message(.text, from: bob), preview: true)?.body == "see you at 8")
        #expect(messenger.notice(for: message(.payment, from: bob, "lunch"))?.body == "sent you a payment")
        #expect(
            messenger.notice(for: message(.payment, from: bob, "lunch"), preview: true)?.body
                == "sent you 1.50000000 KAS: lunch")
        #expect(messenger.notice(for: message(.handshake, from: stranger, ""))?.body == "wants to chat")
        // Muted, open on screen, our own from another device, or not a new message: none.
        #expect(messenger.notice(for: message(.text, from: carol), preview: true) == nil)
        #expect(messenger.notice(for: message(.text, from: bob), open: bob) == nil)
        #expect(messenger.notice(for: message(.text, from: bob), open: carol) != nil)
        #expect(messenger.notice(for: message(.text, from: messenger.address)) == nil)
        for kind in [IncomingMessage.Kind.reaction, .paymentVerified, .broadcast] {
            #expect(messenger.notice(for: message(kind, from: bob)) == nil, "\(kind)")
        }
        // Unmuted again, Carol notifies.
        try await messenger.setMuted(carol, false)
        #expect(messenger.notice(for: message(.text, from: carol))?.title == "Carol")
    }

    func peer() -> KaspaAddress { KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey) }
}
