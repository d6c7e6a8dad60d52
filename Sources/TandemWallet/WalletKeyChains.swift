public import KaspaCrypto
public import TandemProfile

/// The key chains a seed-phrase wallet holds funds on (issue 44 item 2), as Kaspa wallets find
/// them: the receive and change chains of its account, `m/44'/111111'/<account>'/0/i` and
/// `…/1/i`, and KaChat's spending account `m/44'/111111'/1'/0/i`, which KaChat pays from when its
/// "Chats Privacy" switch is on. The chatting key is receive index 0.
public enum WalletChain: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case receive
    case change
    case spending
}

/// The three chains' extended keys of one seed, derived once.
public struct WalletKeyChains: Sendable {
    public let account: UInt32
    private let chains: [WalletChain: ExtendedPrivateKey]

    public init(seed: WalletSeed) throws(ProfileError) {
        let master = try seed.masterKey()
        do {
            let own = try master.derive(KaspaDerivation.account(seed.account))
            let spending = try master.derive(KaspaDerivation.account(KaspaDerivation.spendingAccount))
            chains = [
                .receive: try own.derive(ChildNumber(KaspaDerivation.Chain.receive.rawValue)),
                .change: try own.derive(ChildNumber(KaspaDerivation.Chain.change.rawValue)),
                .spending: try spending.derive(ChildNumber(KaspaDerivation.Chain.receive.rawValue)),
            ]
        } catch { throw .invalidWalletKey(path: Profile.File.walletSeed.rawValue, reason: error.description) }
        account = seed.account
    }

    /// The extended key of the seed's account, `m/44'/111111'/<account>'`: its public half is
    /// what a watch-only wallet imports.
    public static func accountKey(of seed: WalletSeed) throws(ProfileError) -> ExtendedPrivateKey {
        let master = try seed.masterKey()
        do { return try master.derive(KaspaDerivation.account(seed.account)) } catch {
            throw .invalidWalletKey(path: Profile.File.walletSeed.rawValue, reason: error.description)
        }
    }

    /// The key at `index` of `chain`.
    public func key(_ chain: WalletChain, _ index: UInt32) throws(ProfileError) -> PrivateKey {
        guard let node = chains[chain] else { preconditionFailure("every chain is derived in init") }
        do { return try node.derive(ChildNumber(index)).privateKey } catch {
            throw .invalidWalletKey(path: Profile.File.walletSeed.rawValue, reason: error.description)
        }
    }

    /// `m/44'/111111'/<account>'/<0|1>/<index>`, or `m/44'/111111'/1'/0/<index>` for spending.
    public func path(_ chain: WalletChain, _ index: UInt32) -> String {
        switch chain {
        case .receive: "m/44'/111111'/\(account)'/0/\(index)"
        case .change: "m/44'/111111'/\(account)'/1/\(index)"
        case .spending: "m/44'/111111'/\(KaspaDerivation.spendingAccount)'/0/\(index)"
        }
    }

    /// One derived address: where on which chain, and its Schnorr address.
    public struct Address: Sendable, Equatable, Codable {
        public let chain: WalletChain
        public let index: UInt32
        public let path: String
        public let address: String
    }

    /// The first `count` addresses of each chain, receive first.
    public func addresses(count: UInt32, network: KaspaNetwork) throws(ProfileError) -> [Address] {
        var out: [Address] = []
        for chain in WalletChain.allCases {
            for index in 0..<count {
                let key = try key(chain, index)
                out.append(
                    Address(
                        chain: chain, index: index, path: path(chain, index),
                        address: KaspaAddress(publicKey: key.xOnlyPublicKey, network: network).description))
            }
        }
        return out
    }
}
