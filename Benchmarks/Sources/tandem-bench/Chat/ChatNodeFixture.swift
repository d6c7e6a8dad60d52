import BenchSupport
import ChatHistory
import ChatTimeline
import Contacts
import Crypto
import Foundation
import KasiaProtocol
import KaspaCrypto
import MicroBenchmarks
import RoutingStore
import TandemBasics
import TandemProfile

/// The receiver's conversations for the chat-node bench, made the way a profile that has chatted
/// for a while holds them, without putting them on the chain: for each generated address (a key
/// derived from its index, so every run has the same ones) the routing state derived from the
/// receiver's key as a first contact does, with a message seen on the deterministic alias (the
/// peer derives aliases, as current clients do); a contact added and moved by that message; and
/// `rows` history rows alternating incoming and outgoing, each with its own transaction id.
enum ChatNodeFixture {
    struct Summary: Encodable {
        var conversations: Int
        var historyRows: Int
        var seconds: Double
    }

    static func populate(
        _ profile: Profile, key: PrivateKey, network: KaspaNetwork, conversations count: Int, rows: Int
    ) throws -> Summary {
        let clock = ContinuousClock()
        let start = clock.now
        let routing = try profile.openRouting()
        let history = try profile.openChatHistory()
        let contacts = try profile.openContacts()
        let wallet = ContactAddress(KaspaAddress(publicKey: key.xOnlyPublicKey, network: network))
        let policy = try routing.policy()
        let now = profile.clock.now.rawValue
        var states: [ConversationRoutingState] = []
        var messages: [StoredMessage] = []
        for index in 0..<count {
            let peer = KaspaAddress(publicKey: try contactKey(index).xOnlyPublicKey, network: network)
            // Conversations begun over the last 30 days; the newest message a minute apart each.
            let created = UnixMillis(now - 30 * 86_400_000 + Int64(index) * 60_000)
            let lastSeen = now - Int64(count - index) * 60_000
            var state = try ConversationRoutingState(contact: peer, privateKey: key, now: created)
            _ = state.receiveMessage(on: state.deterministic.myAlias, at: UnixMillis(lastSeen), policy: policy)
            states.append(state)
            for row in 0..<rows {
                let time = lastSeen - Int64(rows - 1 - row) * 30_000
                let incoming = row % 2 == 0
                messages.append(
                    StoredMessage(
                        id: MessageID(UUID()), conversation: ConversationID(peer.description),
                        txID: TxID(transactionID(contact: index, row: row)), blockTime: UInt64(time),
                        timestamp: time, status: incoming ? .sent : .confirmed,
                        direction: incoming ? .incoming : .outgoing, kind: .text,
                        body: Data("message \(row) of conversation \(index): a line of ordinary chat text".utf8)))
            }
            try contacts.add(ContactAddress(peer), wallet: wallet)
            try contacts.recordMessage(from: ContactAddress(peer), wallet: wallet, at: UnixMillis(lastSeen))
        }
        try routing.save(states)
        try history.save(contentsOf: messages)
        return Summary(
            conversations: count, historyRows: messages.count, seconds: (clock.now - start).nanoseconds / 1e9)
    }

    /// The `index`-th generated contact's key: SHA-256 of a fixed text with the index.
    static func contactKey(_ index: Int) throws -> PrivateKey {
        try PrivateKey(
            rawRepresentation: Array(SHA256.hash(data: Data("tandem-bench chat-node contact \(index)".utf8))))
    }

    private static func transactionID(contact: Int, row: Int) -> String {
        Hex.encode(SHA256.hash(data: Data("tandem-bench chat-node row \(contact) \(row)".utf8)))
    }
}
