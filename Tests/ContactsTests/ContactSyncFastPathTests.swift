import Crypto
import Foundation
import KaspaCrypto
import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

/// The shortcuts a full contacts sync takes (issue 12 "Figures") give what the general paths
/// give: canonical address text kept as it is, the record id from a keyed HMAC copied per
/// record, and point lookups instead of a preload when the store is much larger than the batch.
@Suite struct ContactSyncFastPathTests {
    @Test func canonicalTextKeepsItsTextAndAddress() throws {
        for seed in 0..<64 {
            let address = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
            let text = seed.isMultiple(of: 2) ? address.description : Fixture.address(UInt8(seed)).description
            #expect(ContactAddress.isCanonicalForm(text))
            let parsed = try ContactAddress(normalizing: text)
            #expect(parsed.description == text)
            #expect(parsed.address.description == text)
            #expect(parsed == ContactAddress(try KaspaAddress(text)))
        }
    }

    @Test(arguments: ["kaspa:", "kaspa:qqqq", "qpumabc", "kaspatest:qpum", "kaspa:qpum1"])
    func canonicalLookingTextThatIsNotAnAddressIsStillRejected(_ text: String) {
        #expect(throws: ContactsError.self) { try ContactAddress(normalizing: text) }
    }

    @Test func theRecordIDIsTheKeyedHMACOfTheKey() {
        let walletKey = PrivateKey.generate()
        let cipher = ContactsSyncCipher(walletKey: walletKey)
        let idKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: walletKey.rawRepresentation), salt: ContactsSyncCipher.salt,
            info: ContactsSyncCipher.idInfo, outputByteCount: 32)
        for seed in 0..<5 {
            let key = ContactKey(wallet: cipher.wallet, address: Fixture.address(UInt8(seed)))
            let reference = HMAC<SHA256>.authenticationCode(for: Data(key.description.utf8), using: idKey)
            // Twice: the copied HMAC must not carry one record's bytes into the next id.
            #expect(cipher.recordID(for: key) == Hex.encode(Array(reference)))
            #expect(cipher.recordID(for: key) == Hex.encode(Array(reference)))
        }
    }

    /// A batch of 300 (enough to preload) into a store of 1,000 rows looks its keys up one by
    /// one; the result equals merging the same batch into a copy that preloads.
    @Test func aBatchMuchSmallerThanTheStoreMergesAsAPreloadDoes() throws {
        let clock = ManualClock(UnixMillis(Fixture.epoch))
        let large = try Fixture.store(replica: "large", clock: clock)
        let small = try Fixture.store(replica: "small", clock: clock)
        let remote = try Fixture.store(replica: "remote", clock: clock)
        var addresses: [ContactAddress] = []
        for _ in 0..<1_000 {
            addresses.append(ContactAddress(KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)))
        }
        for address in addresses { try large.add(address, wallet: Fixture.wallet, alias: "local") }
        for address in addresses.prefix(300) { try small.add(address, wallet: Fixture.wallet, alias: "local") }
        clock.advance(by: .seconds(1))
        for (index, address) in addresses.prefix(300).enumerated() {
            try remote.add(address, wallet: Fixture.wallet, alias: index.isMultiple(of: 3) ? "remote" : nil)
        }
        let batch = try remote.records(wallet: Fixture.wallet)
        #expect(batch.count >= StateLookup.preloadThreshold)
        #expect(1_000 > batch.count * StateLookup.rowsPerKeyToPreload)
        let changedLarge = try large.merge(batch)
        let changedSmall = try small.merge(batch)
        #expect(changedLarge == changedSmall)
        #expect(!changedLarge.isEmpty)
        let expected = try small.records(wallet: Fixture.wallet)
        let merged = try large.records(wallet: Fixture.wallet).filter { record in
            expected.contains { $0.key == record.key }
        }
        #expect(merged == expected)
        #expect(try large.records(wallet: Fixture.wallet).count == 1_000)
    }
}
