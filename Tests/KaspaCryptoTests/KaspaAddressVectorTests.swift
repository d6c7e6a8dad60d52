import TandemBasics
import TestSupport
import Testing

@testable import KaspaCrypto

private let vectors = Result { try KasiaVectors.load() }

@Suite("Kaspa addresses against the reference vectors")
struct KaspaAddressVectorTests {
    static let keyNames = [
        "one", "n_minus_1", "two", "sha256_kasia-ref-key-0", "sha256_kasia-ref-key-1",
        "sha256_kasia-ref-key-2", "sha256_kasia-ref-key-3",
    ]

    @Test("every key has its four address forms, script and recovered key", arguments: keyNames)
    func keyMatchesAllAddressForms(name: String) throws {
        let v = try #require(try vectors.get().key(named: name))
        let key = try PrivateKey(hex: v.private_key)

        #expect(Hex.encode(key.publicKey.compressedRepresentation) == v.public_key_compressed)
        #expect(Hex.encode(key.xOnlyPublicKey.rawRepresentation) == v.xonly)
        #expect(key.publicKey.hasEvenY == (v.y_parity == "even"))

        let xOnly = key.xOnlyPublicKey
        #expect(KaspaAddress(publicKey: xOnly, network: .mainnet).description == v.address_mainnet)
        #expect(KaspaAddress(publicKey: xOnly, network: .testnet).description == v.address_testnet)
        #expect(KaspaAddress(ecdsaPublicKey: key.publicKey, network: .mainnet).description == v.address_mainnet_ecdsa)
        #expect(KaspaAddress(ecdsaPublicKey: key.publicKey, network: .testnet).description == v.address_testnet_ecdsa)

        let mainnet = try KaspaAddress(v.address_mainnet)
        #expect(mainnet.network == .mainnet && mainnet.version == .publicKey)
        #expect(Hex.encode(mainnet.payload) == v.xonly)
        #expect(Hex.encode(mainnet.scriptPublicKey) == v.script_public_key_mainnet)
        #expect(Hex.encode(try mainnet.publicKey().compressedRepresentation) == v.recipient_pubkey_from_address)

        let ecdsa = try KaspaAddress(v.address_testnet_ecdsa)
        #expect(ecdsa.network == .testnet && ecdsa.version == .publicKeyECDSA)
        #expect(try ecdsa.publicKey() == key.publicKey)
    }

    @Test func scriptHashAddressRoundTripsAndCarriesNoKey() throws {
        let v = try vectors.get().p2sh_example
        let hash = try Hex.decode(v.script_hash)
        for (network, text) in [(KaspaNetwork.mainnet, v.address_mainnet), (.testnet, v.address_testnet)] {
            let built = try KaspaAddress(network: network, version: .scriptHash, payload: hash)
            #expect(built.description == text)
            let parsed = try KaspaAddress(text)
            #expect(parsed == built)
            #expect(throws: KaspaAddressError.noPublicKey) { try parsed.publicKey() }
        }
    }

    @Test("malformed addresses are rejected with the reference's reason")
    func malformedAddressesRejected() throws {
        let cases = try vectors.get().malformed.filter { $0.input_kind == "address" }
        #expect(cases.count >= 10)
        for c in cases {
            let text = try #require(c.address)
            switch c.expect {
            case "reject":
                let error = #expect(throws: KaspaAddressError.self, "\(c.case)") { try KaspaAddress(text) }
                #expect(error?.description == c.error, "\(c.case)")
            case "decode_ok_pubkey_fail":
                let address = try KaspaAddress(text)
                let error = #expect(throws: KaspaAddressError.self, "\(c.case)") { try address.publicKey() }
                #expect(error?.description == c.error, "\(c.case)")
            default:
                Issue.record("unknown expectation \(c.expect) in \(c.case)")
            }
        }
    }

    @Test func everyNetworkPrefixRoundTrips() throws {
        let key = PrivateKey.generate()
        for network in KaspaNetwork.allCases {
            for address in [
                KaspaAddress(publicKey: key.xOnlyPublicKey, network: network),
                KaspaAddress(ecdsaPublicKey: key.publicKey, network: network),
            ] {
                let text = address.description
                #expect(text.hasPrefix(network.addressPrefix + ":"))
                #expect(try KaspaAddress(text) == address)
            }
        }
    }

    @Test func anySingleCharacterChangeIsDetected() throws {
        // Given a valid address, when one body character is replaced by another charset symbol,
        // then decoding fails (the BCH code detects every single substitution).
        let text = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey).description
        let chars = Array(text)
        let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l")
        let bodyStart = try #require(chars.firstIndex(of: ":")) + 1
        for index in bodyStart..<chars.count {
            var mutated = chars
            mutated[index] = charset.first { $0 != chars[index] } ?? "q"
            #expect(throws: KaspaAddressError.self) { try KaspaAddress(String(mutated)) }
        }
    }

    @Test func nonZeroPaddingIsRejected() throws {
        // Given version 0 and a 32-byte payload (264 bits = 53 symbols with 1 padding bit),
        // when the padding bit is set and a valid checksum is computed for that body,
        // then decoding still fails on the padding.
        let payload = PrivateKey.generate().xOnlyPublicKey.rawRepresentation
        var values = try #require(KaspaAddressCodec.convertBits([0] + payload, from: 8, to: 5, pad: true))
        values[values.count - 1] |= 1
        let checksum = KaspaAddressCodec.checksum(prefix: "kaspa", data: values)
        let body = (values + checksum).map { KaspaAddressCodec.charset[Int($0)] }
        let text = "kaspa:" + String(decoding: body, as: UTF8.self)
        #expect(throws: KaspaAddressError.nonZeroPadding) { try KaspaAddress(text) }
    }
}
