import ArgumentParser
import BenchSupport
import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KaspaCrypto
import TandemProfile

/// `tandem-bench chat-app-seed`: fills a profile for `scripts/bench-chat-app` (issue 47
/// "Figures"): a long history with one peer, older than anything the chat itself stores, and
/// other contacts with a message each, written straight into the profile's stores.
struct BenchChatAppSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-app-seed",
        abstract: "Give a profile a long history with one peer and many conversations (for the chat app's figures)."
    )

    @Option(help: "The profile directory (its wallet key made by `tandem keys new`).") var profile: String
    @Option(help: "The peer whose conversation gets the long history.") var peer: String
    @Option(help: "Messages in the peer's conversation.") var messages: Int = 100_000
    @Option(help: "Conversations in all, the peer's included.") var conversations: Int = 1_000

    func run() async throws {
        guard messages >= 1, conversations >= 1 else {
            throw CLIError("--messages and --conversations must be positive")
        }
        guard let peerAddress = try? KaspaAddress(peer) else { throw CLIError("--peer \(peer): not a Kaspa address") }
        let store = Profile(directory: URL(fileURLWithPath: profile))
        let key = try store.walletKey()
        let wallet = ContactAddress(KaspaAddress(publicKey: key.xOnlyPublicKey, network: peerAddress.network))
        let history = try store.openChatHistory()
        let contacts = try store.openContacts()
        // A month and more before now, 45 s apart: older than every row the chat stores itself.
        let start = UInt64(Date().timeIntervalSince1970 * 1_000) - UInt64(messages) * 45_000 - 86_400_000
        var index = 0
        while index < messages {
            let batch = (index..<min(messages, index + 5_000)).map { row in
                let blockTime = start + UInt64(row) * 45_000
                let text =
                    row % 5 == 0 ? "seeded \(row): a longer line that wraps in a narrow window, 漢字 😀" : "seeded \(row)"
                return StoredMessage(
                    id: MessageID(UUID()), conversation: ConversationID(peerAddress.description),
                    txID: TxID("seed\(row)"), blockTime: blockTime, timestamp: Int64(blockTime), status: .sent,
                    direction: row % 3 == 0 ? .outgoing : .incoming, kind: .text, body: Data(text.utf8))
            }
            try history.save(contentsOf: batch)
            index += batch.count
        }
        var others: [StoredMessage] = []
        for other in 1..<conversations {
            let address = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey, network: peerAddress.network)
            _ = try contacts.add(ContactAddress(address), wallet: wallet, alias: "Contact \(other)")
            let blockTime = start + UInt64(other) * 60_000
            others.append(
                StoredMessage(
                    id: MessageID(UUID()), conversation: ConversationID(address.description),
                    txID: TxID("seed-other\(other)"), blockTime: blockTime, timestamp: Int64(blockTime),
                    status: .sent, direction: .incoming, kind: .text, body: Data("hello \(other)".utf8)))
        }
        try history.save(contentsOf: others)
        CommandIO.write(
            "seeded \(messages) messages with \(peerAddress) and \(conversations - 1) other conversations\n")
    }
}
