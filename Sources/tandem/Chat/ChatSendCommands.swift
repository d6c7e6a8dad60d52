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

/// `--yes`: spend without the question a terminal gets (issue 51 item 3).
struct SpendConsentOption: ParsableArguments {
    @Flag(name: .long, help: "Over Kaspa: start a chat (0.2 KAS to the peer and fees) without asking first.")
    var yes = false
}

extension ChatCommand {
    struct Handshake: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "handshake",
            abstract: "Start a conversation: send a handshake to ADDRESS and add the contact.",
            discussion: """
                Over Kaspa a handshake pays 0.2 KAS to the peer, plus the fees of it and of its saved \
                copy for your other devices: a terminal is asked first (--yes skips the question), \
                and what was paid is printed. --json: transactionId, sentAt, fee and amount \
                (sompi; null on a relay), spends (docs/cli-json.md).
                """)

        @OptionGroup var options: ChatOptions
        @Option(
            name: .long, help: ArgumentHelp("The peer's Kaspa address, or a contact's name.", valueName: "address|name")
        ) var to: String
        @Flag(name: .long, help: "Print the relay's receipt as JSON.") var json = false
        @OptionGroup var consent: SpendConsentOption
        @OptionGroup var kaspa: KaspaUTXOOption

        /// `transactionId` comes with the spending members; `txID` and `blockTime` (milliseconds
        /// as a string) are the last release's names, kept for one more.
        struct Output: Encodable {
            let txID: String
            let blockTime: UInt64
            let spending: ChatSpending.Members

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(UnixMillis(Int64(clamping: blockTime)).iso8601, forKey: .sentAt)
                try container.encode(txID, forKey: .txID)
                try container.encode(String(blockTime), forKey: .blockTime)
                try spending.encode(to: encoder)
            }

            enum CodingKeys: String, CodingKey { case sentAt, txID, blockTime }
        }

        func run() async throws {
            let named = try PeerArgument(to, option: "--to")
            let messenger = try options.messenger()
            let peer = try named.resolve(in: messenger)
            try await kaspa.apply(to: messenger)
            try await ChatSpending.confirmStart(nil, to: peer, discrete: false, messenger: messenger, yes: consent.yes)
            let started = try await chatCall { try await messenger.handshake(with: peer) }
            let receipt = started.receipt
            if json {
                try CommandIO.printJSON(
                    Output(
                        txID: receipt.txID, blockTime: receipt.blockTime,
                        spending: ChatSpending.Members(
                            transactionID: receipt.txID, spends: started.spends, onKaspa: messenger.isOnKaspa)))
            } else {
                CommandIO.write("handshake sent to \(peer) (tx \(receipt.txID))\n")
                if let line = ChatSpending.handshakeLine(started.spends, peer: peer) { CommandIO.write(line + "\n") }
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send TEXT (or standard input) to ADDRESS; a handshake goes first when routing needs one.",
            discussion: """
                Over Kaspa each message is a transaction paying a fee, and the first one to a peer \
                starts the chat with a handshake (0.2 KAS to the peer): a terminal is asked before \
                that (--yes skips the question), and what was paid is printed. --json adds \
                transactionId, fee and amount (sompi, totals; null on a relay) and spends (each \
                transaction) to the stored message.
                """)

        @OptionGroup var options: ChatOptions
        @Option(
            name: .long, help: ArgumentHelp("The peer's Kaspa address, or a contact's name.", valueName: "address|name")
        ) var to: String
        @Argument(help: "The message; read from standard input when absent.") var text: String?
        @Flag(name: .long, help: "Print the stored message as JSON.") var json = false
        @Flag(name: .long, help: "Send even when the peer may not receive it (the composer's warning).")
        var force = false
        @Flag(
            name: .long,
            help: "Start the conversation without a handshake: both sides derive the aliases (implies --force).")
        var discrete = false
        @OptionGroup var consent: SpendConsentOption
        @OptionGroup var kaspa: KaspaUTXOOption

        struct Output: Encodable {
            let message: ChatMessageOutput
            let spending: ChatSpending.Members

            func encode(to encoder: any Encoder) throws {
                try message.encode(to: encoder)
                try spending.encode(to: encoder)
            }
        }

        func run() async throws {
            let named = try PeerArgument(to, option: "--to")
            var message = try text ?? CommandIO.readStandardInputText()
            if text == nil, message.hasSuffix("\n") { message.removeLast() }
            guard !message.isEmpty else { throw CLIError("TEXT: the message is empty") }
            let messenger = try options.messenger()
            let peer = try named.resolve(in: messenger)
            try await kaspa.apply(to: messenger)
            try await ChatSpending.confirmStart(
                message, to: peer, discrete: discrete, messenger: messenger, yes: consent.yes)
            let sent: MessageSent
            do {
                sent = try await messenger.sendMessage(message, to: peer, force: force, discrete: discrete)
            } catch MessagingError.peerMayNotReceive(let address, let warning) {
                throw CLIError(
                    "\(address) may not receive this message: \(warning.explanation) (--force sends it anyway)")
            } catch {
                throw CLIError(String(describing: error))
            }
            var output = ChatMessageOutput(sent.message)
            if force || discrete {
                output.warning = try await chatCall { try await messenger.composerWarning(for: peer) }?.explanation
            }
            let own = sent.spends.last { $0.purpose == .message }
            if json {
                try CommandIO.printJSON(
                    Output(
                        message: output,
                        spending: ChatSpending.Members(
                            transactionID: output.txID, spends: sent.spends, onKaspa: messenger.isOnKaspa)))
            } else {
                if let warning = output.warning { CommandIO.write("warning: \(warning)\n") }
                if let line = ChatSpending.handshakeLine(sent.spends, peer: peer) { CommandIO.write(line + "\n") }
                let fee = own.map { ", fee \(KaspaAmount.kas(fromSompi: $0.feeSompi)) KAS" } ?? ""
                CommandIO.write("sent (tx \(output.txID ?? "-")\(fee))\n")
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
        @Option(
            name: .long, help: ArgumentHelp("The peer's Kaspa address, or a contact's name.", valueName: "address|name")
        ) var to: String
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
            let named = try PeerArgument(to, option: "--to")
            guard let sompi = KaspaAmount.sompi(fromKAS: amount), sompi > 0 else {
                throw CLIError("--amount \(amount): expected KAS above 0 with at most 8 decimals (e.g. 1.5)")
            }
            guard memo.count <= PaymentMemo.maximumCharacters else {
                throw CLIError("--memo: \(memo.count) characters; at most \(PaymentMemo.maximumCharacters)")
            }
            let approval = try fees.approval()
            let messenger = try options.messenger()
            let peer = try named.resolve(in: messenger)
            let paid = try await chatCall { try await messenger.pay(sompi, to: peer, memo: memo, approval: approval) }
            if json {
                try CommandIO.printJSON(
                    Output(
                        transactionId: paid.transactionID, amount: paid.amountSompi, fee: paid.fee,
                        to: paid.to.description, memo: paid.memo))
            } else {
                CommandIO.write(
                    "sent \(KaspaAmount.kas(fromSompi: paid.amountSompi)) KAS to \(paid.to) (tx \(paid.transactionID), fee \(KaspaAmount.kas(fromSompi: paid.fee)) KAS); paid once a block accepts it\n"
                )
            }
        }
    }
}
