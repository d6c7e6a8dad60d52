import Foundation
import TandemBasics

/// The plaintext of one sync record (DocC "Record format"): JSON with sorted keys. Registers are
/// `{"value": …, "stamp": "<HLC>"}`; times are Unix milliseconds.
struct ContactRecordWire: Codable {
    struct StringRegister: Codable {
        let value: String
        let stamp: String
    }

    struct BoolRegister: Codable {
        let value: Bool
        let stamp: String
    }

    let v: Int
    let wallet: String
    let address: String
    let causalLength: UInt64
    let isPurged: Bool
    let deletedAt: String?
    let addedAt: Int64
    let lastMessageAt: Int64?
    let userAlias: StringRegister
    let knsName: StringRegister
    let isAutoAdded: BoolRegister
    let notificationsMuted: BoolRegister
    let realtimeUpdatesDisabled: BoolRegister

    init(
        v: Int, wallet: String, address: String, causalLength: UInt64, isPurged: Bool, deletedAt: String?,
        addedAt: Int64, lastMessageAt: Int64?, userAlias: StringRegister, knsName: StringRegister,
        isAutoAdded: BoolRegister, notificationsMuted: BoolRegister, realtimeUpdatesDisabled: BoolRegister
    ) {
        self.v = v
        self.wallet = wallet
        self.address = address
        self.causalLength = causalLength
        self.isPurged = isPurged
        self.deletedAt = deletedAt
        self.addedAt = addedAt
        self.lastMessageAt = lastMessageAt
        self.userAlias = userAlias
        self.knsName = knsName
        self.isAutoAdded = isAutoAdded
        self.notificationsMuted = notificationsMuted
        self.realtimeUpdatesDisabled = realtimeUpdatesDisabled
    }

    init(_ record: ContactRecord) {
        let p = record.payload
        v = 1
        wallet = record.key.wallet.description
        address = record.key.address.description
        causalLength = record.causalLength
        isPurged = record.isPurged
        deletedAt = record.deletedAt?.description
        addedAt = p.addedAt.rawValue
        lastMessageAt = p.lastMessageAt?.rawValue
        userAlias = StringRegister(value: p.userAlias.value, stamp: p.userAlias.stamp.description)
        knsName = StringRegister(value: p.knsName.value, stamp: p.knsName.stamp.description)
        isAutoAdded = BoolRegister(value: p.isAutoAdded.value, stamp: p.isAutoAdded.stamp.description)
        notificationsMuted = BoolRegister(
            value: p.notificationsMuted.value, stamp: p.notificationsMuted.stamp.description)
        realtimeUpdatesDisabled = BoolRegister(
            value: p.realtimeUpdatesDisabled.value,
            stamp: p.realtimeUpdatesDisabled.stamp.description)
    }

    /// The record; `knownWallet` is taken as the wallet when the text is exactly its canonical
    /// form (which would normalise to it), so a sync does not parse its own wallet per record.
    func record(wallet knownWallet: ContactAddress? = nil) throws(ContactsError) -> ContactRecord {
        let parsedWallet =
            if let knownWallet, knownWallet.description == wallet { knownWallet } else {
                try ContactAddress(normalizing: wallet)
            }
        let key = ContactKey(wallet: parsedWallet, address: try ContactAddress(normalizing: address))
        func string(_ r: StringRegister) throws(ContactsError) -> LWWRegister<String> {
            LWWRegister(r.value, stamp: try HLCTimestamp(parsing: r.stamp))
        }
        func flag(_ r: BoolRegister) throws(ContactsError) -> LWWRegister<Bool> {
            LWWRegister(r.value, stamp: try HLCTimestamp(parsing: r.stamp))
        }
        let deleted: HLCTimestamp? = if let deletedAt { try HLCTimestamp(parsing: deletedAt) } else { nil }
        return ContactRecord(
            key: key, causalLength: causalLength, isPurged: isPurged, deletedAt: deleted,
            payload: ContactPayload(
                addedAt: UnixMillis(addedAt), lastMessageAt: lastMessageAt.map(UnixMillis.init),
                userAlias: try string(userAlias), knsName: try string(knsName), isAutoAdded: try flag(isAutoAdded),
                notificationsMuted: try flag(notificationsMuted),
                realtimeUpdatesDisabled: try flag(realtimeUpdatesDisabled)))
    }
}
