import ArgumentParser
import Foundation
import TandemMessaging

extension ChatCommand {
    /// `tandem chat delete --with PEER` (issue 48 item 1): deletes a conversation here and, after
    /// `tandem sync`, on every device of the person.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract:
                "Delete the conversation with a peer: its messages and the contact, on every device after a sync.",
            discussion: """
                The messages up to now are deleted and stay deleted: no later `chat sync` or \
                `chat restore` brings them back, and `tandem sync` carries the deletion to the \
                person's other devices (the server's copies of their texts are overwritten). A \
                message the peer sends later starts the conversation again.
                """)

        @OptionGroup var options: LocalChatOptions
        @Option(
            name: .long, help: ArgumentHelp("The peer's Kaspa address, or a contact's name.", valueName: "address|name")
        ) var with: String
        @Flag(name: .long, help: "Print {peer, messagesDeleted} as JSON.") var json = false

        struct Output: Encodable {
            let peer: String
            let messagesDeleted: Int
        }

        func run() async throws {
            let named = try PeerArgument(with, option: "--with")
            let messenger = try options.messenger()
            let peer = try named.resolve(in: messenger)
            let deleted = try await chatCall { try await messenger.deleteConversation(with: peer) }
            if json {
                try CommandIO.printJSON(Output(peer: peer.description, messagesDeleted: deleted))
            } else {
                CommandIO.write(
                    "deleted the conversation with \(peer) (\(deleted) message(s)); `tandem sync` deletes it on your other devices\n"
                )
            }
        }
    }
}
