public import ArgumentParser
import Foundation
import KaspaCrypto
import KaspaNode
import KaspaTransaction
import TandemBasics
public import TandemWallet

extension FeePriority: ExpressibleByArgument {}

/// `tandem wallet …`: the profile's Kaspa wallet through its nodes (issue 24 items 2 and 4).
struct WalletCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet",
        abstract: "The profile's Kaspa wallet through a node: balance, UTXOs, send, watch.",
        discussion: """
            Needs `tandem kaspa connect` first. Amounts are KAS with at most 8 decimals; JSON \
            amounts are sompi (1 KAS = 100,000,000 sompi) as integers.
            """,
        subcommands: [Balance.self, Utxos.self, Addresses.self, Send.self, Watch.self, Limits.self]
    )

    /// The JSON of a balance.
    struct BalanceOutput: Encodable {
        let address: String
        let balance: UInt64
        let spendable: UInt64
        let immature: UInt64
        let pendingTransactions: Int
        let virtualDaaScore: UInt64

        init(_ balance: WalletBalance) {
            address = balance.address.description
            self.balance = balance.balance
            spendable = balance.spendable
            immature = balance.immature
            pendingTransactions = balance.pendingTransactions
            virtualDaaScore = balance.virtualDaaScore
        }

        var line: String {
            var text = "\(address): \(KaspaAmount.kas(fromSompi: balance)) KAS"
            if spendable != balance { text += " (spendable now \(KaspaAmount.kas(fromSompi: spendable)))" }
            if pendingTransactions > 0 { text += ", \(pendingTransactions) pending" }
            return text + "\n"
        }
    }

    struct Balance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "balance", abstract: "Show the wallet's balance in KAS (sompi in JSON).")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print {\"address\",\"balance\",\"spendable\",…} as JSON.") var json = false

        func run() async throws {
            let wallet = try KaspaNodeAccess.wallet(profile.value)
            let balance = try await walletCall { try await wallet.refresh() }
            await wallet.node.disconnect()
            let output = BalanceOutput(balance)
            if json { try CommandIO.printJSON(output) } else { CommandIO.write(output.line) }
        }
    }

    struct Utxos: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "utxos",
            abstract: "List the wallet's confirmed UTXOs (the SDK's UtxoEntry.to_dict form in JSON).")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print a JSON array of UTXO entries.") var json = false

        func run() async throws {
            let wallet = try KaspaNodeAccess.wallet(profile.value)
            _ = try await walletCall { try await wallet.refresh() }
            await wallet.node.disconnect()
            let entries = await wallet.utxos
            if json {
                try CommandIO.printJSON(entries)
            } else {
                for entry in entries {
                    let coinbase = entry.isCoinbase ? " coinbase" : ""
                    CommandIO.write(
                        "\(Hex.encode(entry.outpoint.transactionID)):\(entry.outpoint.index) \(KaspaAmount.kas(fromSompi: entry.amount)) KAS daa \(entry.blockDAAScore)\(coinbase)\n"
                    )
                }
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send KAS to an address, optionally with a payload, at the node's fee estimate.",
            discussion: """
                Nothing is submitted when the address, the amount or the payload is bad, or the \
                balance does not cover amount and fee. Change comes back to the wallet and can be \
                spent at once. Nothing is submitted either when the node asks a fee rate or a fee \
                above the limits (--max-feerate, --max-fee, else `tandem wallet limits`), or when \
                the fee is larger than the amount and --yes is not given.
                """)

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: ArgumentHelp("The recipient's address.", valueName: "address")) var to: String
        @Option(name: .long, help: ArgumentHelp("KAS to send, at most 8 decimals.", valueName: "kas")) var amount:
            String
        @Option(name: .long, help: ArgumentHelp("Transaction payload in hex.", valueName: "hex")) var payload: String?
        @Option(name: .long, help: "low, normal or high: the fee-estimate bucket to pay.") var priority: FeePriority =
            .normal
        @OptionGroup var fees: FeeLimitOptions
        @Flag(name: .long, help: "Print {\"transactionId\",\"fee\",…} as JSON.") var json = false

        func run() async throws {
            let recipient = try parseAddress(to, option: "--to")
            guard let sompi = KaspaAmount.sompi(fromKAS: amount), sompi > 0 else {
                throw CLIError("--amount \(amount): expected KAS above 0 with at most 8 decimals (e.g. 1.5)")
            }
            var payloadBytes: [UInt8] = []
            if let payload {
                do { payloadBytes = try Hex.decode(payload) } catch {
                    throw CLIError("--payload: \(error.description)")
                }
            }
            let wallet = try KaspaNodeAccess.wallet(profile.value)
            let approval = try fees.approval()
            guard recipient.network == wallet.address.network else {
                throw CLIError(
                    "--to \(to): a \(recipient.network.addressPrefix): address, but the profile is on \(wallet.settings.network)"
                )
            }
            let result = try await walletCall {
                try await wallet.send(
                    KaspaTransactionBuilder.Request(recipient: recipient, amount: sompi, payload: payloadBytes),
                    priority: priority, approval: approval)
            }
            await wallet.node.disconnect()
            if json {
                try CommandIO.printJSON(SendOutput(result))
            } else {
                CommandIO.write(
                    "sent \(KaspaAmount.kas(fromSompi: result.amount)) KAS to \(recipient) (tx \(result.transactionID), fee \(KaspaAmount.kas(fromSompi: result.fee)) KAS)\n"
                )
            }
        }
    }

    struct Limits: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "limits",
            abstract: "Show or set the most a send of this profile may pay: fee rate and fee.",
            discussion: """
                Every send (wallet send, chat pay, chat messages over Kaspa) is refused, with \
                nothing submitted, when the node asks more: a fee rate above --max-feerate (sompi \
                per gram, default 10000) or a fee above --max-fee (KAS, default 1). One send may \
                pass its own with the same options. --reset returns to the defaults.
                """)

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: ArgumentHelp("The highest fee rate, in sompi per gram.", valueName: "sompi"))
        var maxFeerate: String?
        @Option(name: .long, help: ArgumentHelp("The highest fee of one transaction, in KAS.", valueName: "kas"))
        var maxFee: String?
        @Flag(name: .long, help: "Forget the profile's limits: the defaults apply.") var reset = false
        @Flag(name: .long, help: "Print {\"maxFeerate\",\"maxFee\",\"source\"} as JSON.") var json = false

        struct Output: Encodable {
            let maxFeerate: Double
            /// Sompi.
            let maxFee: UInt64
            /// `profile` or `default`.
            let source: String
        }

        func validate() throws {
            if reset, maxFeerate != nil || maxFee != nil {
                throw CLIError("--reset: not with --max-feerate or --max-fee")
            }
        }

        func run() throws {
            let profile = try profile.value
            let saved: KaspaNetworkSettings?
            do { saved = try profile.kaspaNetworkSettings() } catch { throw CLIError(error.description) }
            guard var settings = saved else {
                throw CLIError(
                    "profile \(profile.directory.path) is not on the Kaspa network (run `tandem kaspa connect` first)")
            }
            if reset || maxFeerate != nil || maxFee != nil {
                var limits = reset ? nil : settings.feeLimits ?? WalletFeeLimits()
                if let maxFeerate {
                    limits?.maxFeerate = try FeeLimitOptions.feerate(maxFeerate, option: "--max-feerate")
                }
                if let maxFee { limits?.maxFee = try FeeLimitOptions.fee(maxFee, option: "--max-fee") }
                settings.feeLimits = limits
                do { try profile.saveKaspaNetworkSettings(settings) } catch { throw CLIError(error.description) }
            }
            let limits = settings.feeLimits ?? WalletFeeLimits()
            let output = Output(
                maxFeerate: limits.maxFeerate, maxFee: limits.maxFee,
                source: settings.feeLimits == nil ? "default" : "profile")
            if json {
                try CommandIO.printJSON(output)
            } else {
                CommandIO.write(
                    "at most \(WalletFeeLimits.text(feerate: limits.maxFeerate)) sompi/gram and \(KaspaAmount.kas(fromSompi: limits.maxFee)) KAS per transaction (\(output.source == "default" ? "the defaults" : "this profile's"))\n"
                )
            }
        }
    }

    struct SendOutput: Encodable {
        let transactionId: String
        let fee: UInt64
        let amount: UInt64
        let to: OrNull<String>
        let change: UInt64
        let inputs: Int

        init(_ result: WalletSendResult) {
            transactionId = result.transactionID
            fee = result.fee
            amount = result.amount
            to = OrNull(result.recipient?.description)
            change = result.change
            inputs = result.inputs
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Print the balance, then each change to it, until stopped (Ctrl-C).",
            discussion: "Follows the node's UtxosChanged notifications; reconnects and re-reads after a lost node.")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "One JSON object per line, as `wallet balance --json`.") var json = false

        func run() async throws {
            let wallet = try KaspaNodeAccess.wallet(profile.value)
            let node = wallet.node
            try await walletCall {
                try await node.watch([wallet.address])
                try await node.followDaaScore()
            }
            let json = json
            func show(_ balance: WalletBalance) throws {
                let output = BalanceOutput(balance)
                if json { try CommandIO.printJSON(output) } else { CommandIO.write(output.line) }
            }
            // No usable node at the start is bad input (one line, exit 1); later losses are retried.
            try show(try await walletCall { try await wallet.refresh() })
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await node.run() }
                group.addTask {
                    var lost = false
                    for await event in node.events {
                        // Issue 51 item 9: connected, lost and back, said on stderr.
                        switch event {
                        case .connected(let url, _):
                            CommandIO.writeError(
                                "tandem: \(lost ? "back on" : "connected to") \(URLRedaction.redact(url))")
                            lost = false
                        case .disconnected(let url, let reason):
                            CommandIO.writeError(
                                "tandem: lost \(URLRedaction.redact(url)) (\(reason)); trying again")
                            lost = true
                        default: break
                        }
                        do {
                            if let balance = try await wallet.apply(event) { try show(balance) }
                        } catch WalletError.node {
                            // The node failed while re-reading: the client fails over and the
                            // next connect re-reads.
                            continue
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
