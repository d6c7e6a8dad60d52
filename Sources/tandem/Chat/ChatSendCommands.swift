import ArgumentParser
import ChatHistory
import Foundation
import KasiaProtocol
import KaspaTransaction
import TandemBasics
import TandemMessaging
import TandemWallet

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

extension ChatCommand {
    /// `tandem chat pay --to ADDRESS --amount KAS [--memo TEXT] [--json]` (issue 43 item 3).
    struct Pay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pay",
            abstract: "Pay ADDRESS in KAS with a memo sealed to them, in the form their app reads (Kaspa network).",
            discussion: """
                The payment goes on the Kaspa network (after tandem kaspa connect): the amount to the \
                peer's address and, in the same transaction, the memo sealed to the peer, as KaChat \
                (pay:) or Kasia web (payment:) reads it, whichever the peer's payloads show, under \
                the conversation's root. Both histories show the payment with its amount and memo. \
                Nothing is submitted when the address, the amount or the memo (at most 140 \
                characters) is bad, or when the fee would break the limits (--max-feerate, \
                --max-fee, else `tandem wallet limits`) or be larger than the amount without --yes. \
                --json prints transactionId, amount and fee (sompi), to, memo.
                """)

        @OptionGroup var options: ChatOptions
        @Option(name: .long, help: ArgumentHelp("The peer's Kaspa address.", valueName: "address")) var to: String
        @Option(name: .long, help: ArgumentHelp("KAS to pay, at most 8 decimals.", valueName: "kas")) var amount: String
        @Option(name: .long, help: ArgumentHelp("A note for the peer, at most 140 characters.", valueName: "text"))
        var memo = ""
        @OptionGroup var fees: FeeLimitOptions
        @Flag(name: .long, help: "Print the payment as JSON.") var json = false

        struct Output: Encodable {
            let transactionId: String
            let amount: UInt64
            let fee: UInt64
            let to: String
            let memo: String
        }

        func run() async throws {
            let peer = try parseAddress(to, option: "--to")
            guard let sompi = KaspaAmount.sompi(fromKAS: amount), sompi > 0 else {
                throw CLIError("--amount \(amount): expected KAS above 0 with at most 8 decimals (e.g. 1.5)")
            }
            guard memo.count <= PaymentMemo.maximumCharacters else {
                throw CLIError("--memo: \(memo.count) characters; at most \(PaymentMemo.maximumCharacters)")
            }
            let approval = try fees.approval()
            let messenger = try options.messenger()
            let paid = try await chatCall { try await messenger.pay(sompi, to: peer, memo: memo, approval: approval) }
            if json {
                try CommandIO.printJSON(
                    Output(
                        transactionId: paid.transactionID, amount: paid.amountSompi, fee: paid.fee,
                        to: paid.to.description, memo: paid.memo))
            } else {
                CommandIO.write(
                    "sent \(KaspaAmount.kas(fromSompi: paid.amountSompi)) KAS to \(paid.to) (tx \(paid.transactionID), fee \(paid.fee) sompi); paid once a block accepts it\n"
                )
            }
        }
    }
}
