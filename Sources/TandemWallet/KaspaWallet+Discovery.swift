import Foundation
public import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaTransaction
import SecretFiles
public import TandemProfile

/// An address of a seed-phrase wallet found holding funds (issue 44 item 2), with where it sits.
public struct FoundAddress: Sendable, Equatable {
    public let chain: WalletChain
    public let index: UInt32
    public let path: String
    public let address: KaspaAddress
    let key: PrivateKey

    public static func == (lhs: FoundAddress, rhs: FoundAddress) -> Bool {
        lhs.chain == rhs.chain && lhs.index == rhs.index && lhs.address == rhs.address
    }
}

/// The highest index of each chain seen holding funds (``Profile/File/kaspaAddressScan``): a
/// later scan always reaches past it, so funds a wallet moved further along a chain (KaChat's
/// spending account advances one address per payment) are found even after the addresses before
/// them emptied.
public struct AddressScanState: Sendable, Equatable, Codable {
    public var highest: [WalletChain: UInt32] = [:]

    public init(highest: [WalletChain: UInt32] = [:]) { self.highest = highest }
}

extension Profile {
    /// What the last scans found (empty before the first).
    public func addressScanState() throws(ProfileError) -> AddressScanState {
        guard let data = FileManager.default.contents(atPath: url(.kaspaAddressScan).path) else {
            return AddressScanState()
        }
        guard let state = try? JSONDecoder().decode(AddressScanState.self, from: data) else {
            throw .corruptFile(path: url(.kaspaAddressScan).path, reason: "not an address scan state")
        }
        return state
    }

    func saveAddressScanState(_ state: AddressScanState) throws(ProfileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state) else { return }
        do {
            try SecretFile.createDirectory(directory)
            try SecretFile.replace(url(.kaspaAddressScan), contents: data, durably: false)
        } catch { throw ProfileError(error) }
    }
}

extension KaspaWallet {
    /// Addresses scanned past the last one holding funds on each chain, as Kaspa wallets do.
    public static let gapLimit: UInt32 = 20
    /// The farthest a scan goes on one chain, whatever a node answers: a node claiming funds on
    /// every address cannot keep the wallet scanning forever.
    public static let maximumScanIndex: UInt32 = 10_000

    /// Every address of the wallet's chains holding funds, and their UTXOs, read from the node
    /// in rounds of one `getUtxosByAddresses` each: each chain is read to `gap` addresses past
    /// both the last one found holding funds and the highest this profile ever saw. Answers for
    /// addresses that were not asked are dropped.
    func discover(_ chains: WalletKeyChains, gap: UInt32) async throws(WalletError) -> (
        found: [FoundAddress], entries: [RPCUtxosByAddressesEntry]
    ) {
        let saved: AddressScanState
        do { saved = try profile.addressScanState() } catch { throw .storage(error.description) }
        var state = saved
        var next: [WalletChain: UInt32] = [:]
        var reach: [WalletChain: UInt32] = [:]
        for chain in WalletChain.allCases { reach[chain] = (state.highest[chain].map { $0 + 1 } ?? 0) + gap }
        var found: [FoundAddress] = []
        var entries: [RPCUtxosByAddressesEntry] = []
        while true {
            var batch: [KaspaScriptPublicKey: FoundAddress] = [:]
            for chain in WalletChain.allCases {
                let end = min(reach[chain] ?? gap, Self.maximumScanIndex)
                var index = next[chain] ?? 0
                while index < end {
                    let key: PrivateKey
                    do { key = try chains.key(chain, index) } catch { throw .storage(error.description) }
                    let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: settings.network.network)
                    batch[KaspaScriptPublicKey(address: address)] = FoundAddress(
                        chain: chain, index: index, path: chains.path(chain, index), address: address, key: key)
                    index += 1
                }
                next[chain] = index
            }
            guard !batch.isEmpty else { break }
            let answer: RPCUtxosByAddresses
            do {
                answer = try await node.call(
                    .getUtxosByAddresses, RPCAddresses(addresses: batch.values.map(\.address)),
                    as: RPCUtxosByAddresses.self)
            } catch { throw .node(error) }
            var holding = Set<KaspaScriptPublicKey>()
            for entry in answer.entries where batch[entry.utxoEntry.scriptPublicKey.value] != nil {
                entries.append(entry)
                holding.insert(entry.utxoEntry.scriptPublicKey.value)
            }
            for script in holding {
                guard let address = batch[script] else { continue }
                found.append(address)
                reach[address.chain] = max(reach[address.chain] ?? 0, address.index + 1 + gap)
                state.highest[address.chain] = max(state.highest[address.chain] ?? 0, address.index)
            }
        }
        if state != saved {
            do { try profile.saveAddressScanState(state) } catch { throw .storage(error.description) }
        }
        found.sort { ($0.chain.order, $0.index) < ($1.chain.order, $1.index) }
        return (found, entries)
    }
}

extension WalletChain {
    var order: Int { WalletChain.allCases.firstIndex(of: self) ?? 0 }
}
