import ArgumentParser
import Foundation
import KaspaCrypto
import TandemBasics
import TandemMessaging
import TandemProfile
import TandemWallet

extension WalletCommand {
    struct Addresses: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "addresses",
            abstract: "List the wallet's addresses that hold funds, with their paths and balances.",
            discussion: """
                A seed-phrase wallet finds its funds as Kaspa wallets do: the receive and change \
                chains of its account and KaChat's spending account, each read 20 addresses (--gap) \
                past the last one holding funds and past the highest this profile has seen. The \
                chatting address is always listed. Balances, UTXOs and sends cover every address listed.
                """)

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: "Addresses read past the last one holding funds.") var gap: UInt32 = 20
        @Flag(
            name: .long, help: "Print {\"addresses\":[{\"chain\",\"index\",\"path\",\"address\",\"balance\"}]} as JSON."
        )
        var json = false

        struct Row: Encodable {
            /// `receive`, `change`, `spending`, or nil for a raw-key wallet's one address.
            let chain: String?
            let index: UInt32?
            let path: String?
            let address: String
            /// Sompi.
            let balance: UInt64
        }

        struct Output: Encodable { let addresses: [Row] }

        func validate() throws {
            guard (1...1000).contains(gap) else { throw ValidationError("--gap must be 1...1000") }
        }

        func run() async throws {
            let wallet = try KaspaNodeAccess.wallet(profile.value)
            _ = try await walletCall { try await wallet.refresh(gap: gap) }
            await wallet.node.disconnect()
            let found = await wallet.found
            let balances = await wallet.balances
            let chatting = wallet.address
            var rows = found.map {
                Row(
                    chain: $0.chain.rawValue, index: $0.index, path: $0.path, address: $0.address.description,
                    balance: balances[$0.address] ?? 0)
            }
            if !found.contains(where: { $0.address == chatting }) {
                let seed = try? profile.value.walletSeed()
                let row = Row(
                    chain: seed == nil ? nil : WalletChain.receive.rawValue, index: seed == nil ? nil : 0,
                    path: try? seed?.chattingPath.description, address: chatting.description,
                    balance: balances[chatting] ?? 0)
                rows.insert(row, at: 0)
            }
            if json { return try CommandIO.printJSON(Output(addresses: rows)) }
            for row in rows {
                let place = row.path.map { "\($0)  " } ?? ""
                CommandIO.write("\(place)\(row.address)  \(KaspaAmount.kas(fromSompi: row.balance)) KAS\n")
            }
        }
    }
}
