import ArgumentParser
import ChatHistory
import Foundation
import KaspaTransaction
import TandemClient

/// `--kaspa-utxos FILE`: send as signed Kaspa transactions spending these UTXOs (issue 15).
struct KaspaUTXOOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Send as signed Kaspa transactions spending these UTXOs (JSON array, SDK UtxoEntry.to_dict form).",
            valueName: "file"))
    var kaspaUtxos: String?

    func apply(to messenger: Messenger) async throws {
        guard let kaspaUtxos else { return }
        let entries = try KaspaTxFileInput.decode(
            [KaspaUtxoEntry].self, from: kaspaUtxos, what: "a JSON array of UTXO entries")
        await messenger.useKaspaTransactions(spending: entries)
    }
}

extension ChatCommand {
    struct Handshake: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "handshake",
            abstract: "Start a conversation: send a handshake to ADDRESS and add the contact.")

        @OptionGroup var options: ChatOptions
        @Option(name: .long, help: ArgumentHelp("The peer's Kaspa address.", valueName: "address")) var to: String
        @Flag(name: .long, help: "Print the relay's receipt as JSON.") var json = false
        @OptionGroup var kaspa: KaspaUTXOOption

        func run() async throws {
            let peer = try parseAddress(to, option: "--to")
            let messenger = try options.messenger()
            try await kaspa.apply(to: messenger)
            let receipt = try await chatCall { try await messenger.startConversation(with: peer) }
            if json {
                try CommandIO.printJSON(["txID": receipt.txID, "blockTime": String(receipt.blockTime)])
            } else {
                CommandIO.write("handshake sent to \(peer) (tx \(receipt.txID))\n")
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send TEXT (or standard input) to ADDRESS; a handshake goes first when routing needs one.")

        @OptionGroup var options: ChatOptions
        @Option(name: .long, help: ArgumentHelp("The peer's Kaspa address.", valueName: "address")) var to: String
        @Argument(help: "The message; read from standard input when absent.") var text: String?
        @Flag(name: .long, help: "Print the stored message as JSON.") var json = false
        @Flag(name: .long, help: "Send even when the peer may not receive it (the composer's warning).")
        var force = false
        @Flag(
            name: .long,
            help: "Start the conversation without a handshake: both sides derive the aliases (implies --force).")
        var discrete = false
        @OptionGroup var kaspa: KaspaUTXOOption

        func run() async throws {
            let peer = try parseAddress(to, option: "--to")
            var message = try text ?? CommandIO.readStandardInputText()
            if text == nil, message.hasSuffix("\n") { message.removeLast() }
            guard !message.isEmpty else { throw CLIError("TEXT: the message is empty") }
            let messenger = try options.messenger()
            try await kaspa.apply(to: messenger)
            let stored: StoredMessage
            do {
                stored = try await messenger.send(message, to: peer, force: force, discrete: discrete)
            } catch MessagingError.peerMayNotReceive(let address, let warning) {
                throw CLIError(
                    "\(address) may not receive this message: \(warning.explanation) (--force sends it anyway)")
            } catch {
                throw CLIError(String(describing: error))
            }
            var output = ChatMessageOutput(stored)
            if force || discrete {
                output.warning = try await chatCall { try await messenger.composerWarning(for: peer) }?.explanation
            }
            if json {
                try CommandIO.printJSON(output)
            } else {
                if let warning = output.warning { CommandIO.write("warning: \(warning)\n") }
                CommandIO.write("sent (tx \(output.txID ?? "-"))\n")
            }
        }
    }
}
