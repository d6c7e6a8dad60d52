import ExtendedKeyText
import KaspaCrypto
import TandemBasics
import TestSupport
import Testing

private let vectors = Result { try HDWalletVectors.load() }

@Suite("BIP-32 extended keys")
struct ExtendedKeyTests {
    @Test("test vectors 1-4: every chain's xprv and xpub", arguments: 0..<4)
    func publishedTrees(vector: Int) throws {
        let tree = try vectors.get().bip32.valid[vector]
        let master = try ExtendedPrivateKey(seed: Hex.decode(tree.seed))
        #expect(!tree.chains.isEmpty)
        for chain in tree.chains {
            let key = try master.derive(DerivationPath(parsing: chain.path))
            #expect(key.serialized() == chain.xprv, "\(chain.path)")
            #expect(key.extendedPublicKey.serialized() == chain.xpub, "\(chain.path)")
            // Both parse back to the same key.
            #expect(try ExtendedPrivateKey(serialized: chain.xprv).serialized() == chain.xprv)
            #expect(try ExtendedPublicKey(serialized: chain.xpub).serialized() == chain.xpub)
        }
    }

    @Test func publicDerivationAgreesWithPrivateForUnhardenedSteps() throws {
        let tree = try vectors.get().bip32.valid[1]  // m/0 is unhardened
        let master = try ExtendedPrivateKey(seed: Hex.decode(tree.seed))
        let fromPublic = try master.extendedPublicKey.derive(ChildNumber(0))
        #expect(fromPublic.serialized() == tree.chains[1].xpub)
        #expect(throws: HDKeyError.hardenedFromPublic(try ChildNumber(0, hardened: true))) {
            try master.extendedPublicKey.derive(ChildNumber(0, hardened: true))
        }
    }

    @Test("test vector 5: every invalid key is refused by both parsers", arguments: 0..<16)
    func invalidKeys(index: Int) throws {
        let invalid = try vectors.get().bip32.invalid[index]
        #expect(throws: ExtendedKeyTextError.self, "\(invalid.reason)") {
            try ExtendedPrivateKey(serialized: invalid.key)
        }
        #expect(throws: ExtendedKeyTextError.self, "\(invalid.reason)") {
            try ExtendedPublicKey(serialized: invalid.key)
        }
    }

    @Test func invalidKeysFailForTheirStatedReason() throws {
        let invalid = try vectors.get().bip32.invalid
        func privateError(_ index: Int) -> ExtendedKeyTextError? {
            #expect(throws: ExtendedKeyTextError.self) { try ExtendedPrivateKey(serialized: invalid[index].key) }
        }
        func publicError(_ index: Int) -> ExtendedKeyTextError? {
            #expect(throws: ExtendedKeyTextError.self) { try ExtendedPublicKey(serialized: invalid[index].key) }
        }
        #expect(publicError(0) == .versionMismatch)
        #expect(privateError(1) == .versionMismatch)
        #expect(publicError(2) == .keyPrefix(4))
        #expect(privateError(3) == .keyPrefix(4))
        #expect(publicError(4) == .keyPrefix(1))
        #expect(privateError(5) == .keyPrefix(1))
        #expect(privateError(6) == .masterWithParent)
        #expect(publicError(7) == .masterWithParent)
        #expect(privateError(8) == .masterWithParent)
        #expect(publicError(9) == .masterWithParent)
        if case .unknownVersion = privateError(10) {} else { Issue.record("vector 5 #11: not an unknown version") }
        if case .unknownVersion = publicError(11) {} else { Issue.record("vector 5 #12: not an unknown version") }
        #expect(privateError(12) == .invalidKey(.privateKeyOutOfRange))
        #expect(privateError(13) == .invalidKey(.privateKeyOutOfRange))
        #expect(publicError(14) == .invalidKey(.publicKeyNotOnCurve))
        #expect(privateError(15) == .checksum)
    }

    @Test func pathsParseAndPrint() throws {
        let path = try DerivationPath(parsing: "m/44'/111111h/0H/0/7")
        #expect(path.description == "m/44'/111111'/0'/0/7")
        #expect(try KaspaDerivation.chatting(account: 0).description == "m/44'/111111'/0'/0/0")
        #expect(try KaspaDerivation.path(account: 1, chain: .change, index: 3).description == "m/44'/111111'/1'/1/3")
        for bad in ["", "44'/0", "m/", "m//0", "m/x", "m/2147483648", "m/-1", "m/+1", "m/1''", "m/٣"] {
            #expect(throws: HDKeyError.self, "\(bad)") { try DerivationPath(parsing: bad) }
        }
        #expect(try DerivationPath(parsing: "m").components.isEmpty)
    }

    @Test func kaspaVersionsRoundTrip() throws {
        let master = try ExtendedPrivateKey(seed: [UInt8](repeating: 7, count: 64))
        let kprv = master.serialized(.kaspa)
        #expect(kprv.hasPrefix("kprv"))
        #expect(master.extendedPublicKey.serialized(.kaspa).hasPrefix("kpub"))
        #expect(try ExtendedPrivateKey(serialized: kprv).privateKey == master.privateKey)
        #expect(!String(describing: master).contains(master.privateKey.hexRepresentation))
    }

    @Test func seedsOutsideSixteenToSixtyFourBytesAreRefused() {
        #expect(throws: HDKeyError.seedLength(15)) { try ExtendedPrivateKey(seed: [UInt8](repeating: 1, count: 15)) }
        #expect(throws: HDKeyError.seedLength(65)) { try ExtendedPrivateKey(seed: [UInt8](repeating: 1, count: 65)) }
    }
}
