import KasiaProtocol
import KaspaCrypto
import TestSupport
import Testing

private let vectors = Result { try KasiaVectors.load() }

@Suite("Deterministic aliases against the reference vectors")
struct AliasPairVectorTests {
    static let pairIndices = Array(0..<6)

    private func keys(_ pair: KasiaVectors.AliasPairVector) throws -> (PrivateKey, PrivateKey) {
        let v = try vectors.get()
        return (
            try PrivateKey(hex: try #require(v.key(named: pair.A)).private_key),
            try PrivateKey(hex: try #require(v.key(named: pair.B)).private_key)
        )
    }

    @Test("chat and dm_alias_v1 pairs match from both sides", arguments: pairIndices)
    func pairMatchesVector(index: Int) throws {
        let pair = try vectors.get().alias_pairs[index]
        let (a, b) = try keys(pair)
        let addressA = try KaspaAddress(pair.A_address)
        let addressB = try KaspaAddress(pair.B_address)
        for (scheme, expected) in [(AliasScheme.chat, pair.chat), (.dmAliasV1, pair.dm_alias_v1)] {
            let fromA = try AliasPair(privateKey: a, peer: addressB, scheme: scheme)
            let fromB = try AliasPair(privateKey: b, peer: addressA, scheme: scheme)
            #expect(fromA.myAlias.rawValue == expected.A_myAlias, "\(scheme)")
            #expect(fromA.theirAlias.rawValue == expected.A_theirAlias, "\(scheme)")
            #expect(fromB.myAlias.rawValue == expected.B_myAlias, "\(scheme)")
            #expect(fromB.theirAlias.rawValue == expected.B_theirAlias, "\(scheme)")
        }
    }

    @Test("the network prefix plays no part", arguments: pairIndices)
    func testnetAddressesGiveTheSameAliases(index: Int) throws {
        let pair = try vectors.get().alias_pairs[index]
        #expect(pair.testnet_aliases_same_as_mainnet)
        let (a, _) = try keys(pair)
        let mainnet = try KaspaAddress(pair.B_address)
        let testnet = try KaspaAddress(network: .testnet, version: .publicKey, payload: mainnet.payload)
        #expect(try AliasPair(privateKey: a, peer: mainnet) == AliasPair(privateKey: a, peer: testnet))
    }

    @Test func defaultSchemeIsChat() throws {
        let pair = try vectors.get().alias_pairs[0]
        let (a, _) = try keys(pair)
        #expect(
            try AliasPair(privateKey: a, peer: try KaspaAddress(pair.B_address)).myAlias.rawValue == pair.chat.A_myAlias
        )
    }

    @Test("keys of either parity with the same x derive the same aliases")
    func parityDoesNotMatter() throws {
        let v = try vectors.get()
        #expect(v.parity_note.contains("share an address"))
        let one = try PrivateKey(hex: try #require(v.key(named: "one")).private_key)
        let minusOne = try PrivateKey(hex: try #require(v.key(named: "n_minus_1")).private_key)
        for _ in 0..<4 {
            let peer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
            #expect(try AliasPair(privateKey: one, peer: peer) == AliasPair(privateKey: minusOne, peer: peer))
        }
    }

    @Test(
        "random key pairs: A.myAlias == B.theirAlias and A.theirAlias == B.myAlias",
        arguments: AliasScheme.allCases)
    func aliasesAreMirroredForRandomKeys(scheme: AliasScheme) throws {
        for _ in 0..<32 {
            let a = PrivateKey.generate()
            let b = PrivateKey.generate()
            let fromA = try AliasPair(privateKey: a, peer: KaspaAddress(publicKey: b.xOnlyPublicKey), scheme: scheme)
            let fromB = try AliasPair(privateKey: b, peer: KaspaAddress(publicKey: a.xOnlyPublicKey), scheme: scheme)
            #expect(fromA.myAlias == fromB.theirAlias)
            #expect(fromA.theirAlias == fromB.myAlias)
            #expect(fromA.myAlias != fromA.theirAlias)
        }
    }

    @Test func refusesNonSchnorrPeers() throws {
        let v = try vectors.get()
        let cases = v.malformed.filter { $0.input_kind == "alias_derivation" }
        #expect(!cases.isEmpty)
        let me = PrivateKey.generate()
        for c in cases {
            let peer = try KaspaAddress(try #require(c.address))
            let error = #expect(throws: KaspaAddressError.self) { try AliasPair(privateKey: me, peer: peer) }
            #expect(error?.description == c.error)
        }
        let p2sh = try KaspaAddress(v.p2sh_example.address_mainnet)
        #expect(throws: KaspaAddressError.notSchnorr(.scriptHash)) { try AliasPair(privateKey: me, peer: p2sh) }
    }

    @Test func aliasTextIsValidated() throws {
        #expect(try Alias("A1B2C3D4E5F6").rawValue == "a1b2c3d4e5f6")
        for bad in ["abc", "zzzzzzzzzzzz", "a1b2c3d4e5f6a", "a1b2c3d4e5f:", ""] {
            #expect(throws: Alias.ValidationError.self) { try Alias(bad) }
        }
        #expect(Alias.random() != Alias.random())
    }
}
