import Foundation
import KaspaCrypto
import RedoProtocol
import Testing

@testable import TandemSync

/// The account's presets key between devices (issue 28), decided by `PresetKeyring.resolve`
/// over key records as the server would hold them: writes are applied as compare-and-swap.
struct PresetKeyringTests {
    typealias Records = [String: (version: Int64, record: PresetKeyring.Record)]

    static let account = "acct-1"

    struct Device {
        let keyring: PresetKeyring
        var deviceKey: String { keyring.deviceKey.publicKey.description }

        init(wallet: PrivateKey? = nil) {
            keyring = PresetKeyring(deviceKey: SigningKey(), walletKey: wallet)
        }

        /// Resolves, applies the writes to `records` and returns the key's id, if any.
        @discardableResult
        func run(_ records: inout Records, accountKeys: Set<String>) -> String? {
            let resolution = keyring.resolve(
                records: records, accountID: PresetKeyringTests.account, accountKeys: accountKeys)
            for write in resolution.writes {
                #expect((records[write.id]?.version ?? 0) == write.replacing, "a write replaces the version held")
                records[write.id] = ((records[write.id]?.version ?? 0) + 1, write.record)
            }
            return resolution.key.map(PresetKeyring.keyID)
        }
    }

    @Test func aDeviceWithoutTheKeyGetsItWrappedByOneThatHasIt() {
        var records: Records = [:]
        let first = Device()
        let second = Device()
        let keys: Set = [first.deviceKey, second.deviceKey]
        let named = first.run(&records, accountKeys: keys)
        #expect(named != nil)
        #expect(records[PresetKeyring.anchorID]?.record.keyId == named)
        #expect(second.run(&records, accountKeys: keys) == nil)
        first.run(&records, accountKeys: keys)
        #expect(second.run(&records, accountKeys: keys) == named)
        // It keeps a copy wrapped by itself: the first device may go, the second keeps the key.
        let ownSlot = PresetKeyring.slotID(sealingKey: second.keyring.sealingKey)
        #expect(records[ownSlot]?.record.wraps?.contains { $0.by == second.keyring.sealingKey } == true)
        #expect(second.run(&records, accountKeys: [second.deviceKey]) == named)
    }

    @Test func aRevokedOrForeignDeviceGetsNothingWrapped() {
        var records: Records = [:]
        let holder = Device()
        let revoked = Device()
        holder.run(&records, accountKeys: [holder.deviceKey, revoked.deviceKey])
        revoked.run(&records, accountKeys: [holder.deviceKey, revoked.deviceKey])
        // The holder's next run no longer lists the revoked key: no wrap for its slot.
        holder.run(&records, accountKeys: [holder.deviceKey])
        let slot = PresetKeyring.slotID(sealingKey: revoked.keyring.sealingKey)
        #expect(records[slot]?.record.wraps?.isEmpty != false)
        #expect(revoked.run(&records, accountKeys: [holder.deviceKey, revoked.deviceKey]) == nil)
    }

    @Test func walletDevicesDeriveTheSameKeyAndRespectAnotherAnchor() {
        let wallet = PrivateKey.generate()
        var records: Records = [:]
        let phone = Device(wallet: wallet)
        let laptop = Device(wallet: wallet)
        let keys: Set = [phone.deviceKey, laptop.deviceKey]
        let named = phone.run(&records, accountKeys: keys)
        #expect(laptop.run(&records, accountKeys: keys) == named)

        // An account whose first device had no wallet: its wallet devices wait for a wrap.
        var other: Records = [:]
        let browser = Device()
        let cli = Device(wallet: wallet)
        let otherKeys: Set = [browser.deviceKey, cli.deviceKey]
        let random = browser.run(&other, accountKeys: otherKeys)
        #expect(random != named)
        #expect(cli.run(&other, accountKeys: otherKeys) == nil)
        browser.run(&other, accountKeys: otherKeys)
        #expect(cli.run(&other, accountKeys: otherKeys) == random)
    }

    @Test func aKeyNoDeviceHoldsIsReplacedAndADudWrapIsDropped() {
        var records: Records = [:]
        let gone = Device()
        let keys: Set = [gone.deviceKey]
        let lost = gone.run(&records, accountKeys: keys)
        // The only holder is revoked: the next device names a new key over the anchor's version.
        let next = Device()
        let renamed = next.run(&records, accountKeys: [next.deviceKey])
        #expect(renamed != nil && renamed != lost)
        #expect(records[PresetKeyring.anchorID]?.version == 2)

        // A wrap in a device's slot that does not open (damaged, or put there by the server) is
        // dropped by that device, and the holder wraps the key again.
        let late = Device()
        let both: Set = [next.deviceKey, late.deviceKey]
        late.run(&records, accountKeys: both)
        let slot = PresetKeyring.slotID(sealingKey: late.keyring.sealingKey)
        if var entry = records[slot], let id = renamed {
            entry.record.wraps = [
                .init(keyId: id, by: next.keyring.sealingKey, box: Data(count: 60).base64EncodedString())
            ]
            records[slot] = (entry.version + 1, entry.record)
        }
        #expect(late.run(&records, accountKeys: both) == nil)
        #expect(records[slot]?.record.wraps?.isEmpty == true)
        next.run(&records, accountKeys: both)
        #expect(late.run(&records, accountKeys: both) == renamed)
    }

    @Test func slotsAndWrapsSurviveTheirBoxes() throws {
        let device = Device()
        let slot = device.keyring.ownSlot(accountID: Self.account)
        #expect(PresetKeyring.Record.parse(try slot.box()) == slot)
        #expect(PresetKeyring.isVouched(slot, accountID: Self.account, accountKeys: [device.deviceKey]))
        #expect(!PresetKeyring.isVouched(slot, accountID: "another", accountKeys: [device.deviceKey]))
        #expect(PresetKeyring.Record.parse(Data("tandem-preset-key/v1\n{\"kind\":1}".utf8)) == nil)
        #expect(PresetKeyring.Record.hasMagic(Data("tandem-preset-key/v1\n{\"kind\":1}".utf8)))
    }
}
