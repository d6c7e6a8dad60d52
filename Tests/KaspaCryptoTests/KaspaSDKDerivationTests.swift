import ExtendedKeyText
import KaspaCrypto
import TandemBasics
import TestSupport
import Testing

private let vectors = Result { try KaspaHDVectors.load() }

@Suite("Kaspa wallet derivation against the rusty-kaspa SDK")
struct KaspaSDKDerivationTests {
    @Test(arguments: 0..<5)
    func wordsSeedMasterKeyAndAddressesMatchTheSDK(index: Int) throws {
        let vector = try vectors.get().vectors[index]
        let mnemonic = try Mnemonic(entropy: Hex.decode(vector.entropy))
        #expect(mnemonic.phrase == vector.mnemonic)
        let seed = mnemonic.seed(passphrase: vector.passphrase)
        #expect(Hex.encode(seed) == vector.seed)
        let master = try ExtendedPrivateKey(seed: seed)
        #expect(master.serialized(.kaspa) == vector.kprv)
        #expect(
            try master.derive(KaspaDerivation.account(vector.account)).extendedPublicKey.serialized(.kaspa)
                == vector.kpub)
        #expect(vector.addresses.count == 9)
        for expected in vector.addresses {
            let path: DerivationPath =
                switch expected.chain {
                case "receive":
                    try KaspaDerivation.path(account: vector.account, chain: .receive, index: expected.index)
                case "change": try KaspaDerivation.path(account: vector.account, chain: .change, index: expected.index)
                default: try KaspaDerivation.path(account: 1, chain: .receive, index: expected.index)
                }
            let key = try master.derive(path).privateKey
            #expect(KaspaAddress(publicKey: key.xOnlyPublicKey).description == expected.address, "\(path)")
        }
        // The chatting key is receive 0.
        let chatting = try master.derive(KaspaDerivation.chatting(account: vector.account)).privateKey
        #expect(KaspaAddress(publicKey: chatting.xOnlyPublicKey).description == vector.addresses[0].address)
    }
}
