import CanonicalJSON
public import TandemBasics

/// KaChat's contact lists as exported from UserDefaults (kasia-protocol §8; file format in the
/// DocC article "Legacy migration"): a JSON object whose keys are UserDefaults keys —
/// `kachat_contacts_wallet_<address>` per wallet, `kachat_contacts` for the single-wallet
/// legacy list — and whose values are arrays of `Contact` objects as Swift's default
/// `JSONEncoder` wrote them. Unknown keys and unknown fields are ignored.
public struct LegacyContactList: Sendable {
    /// One decoded contact with the wallet it belongs to.
    public struct Entry: Sendable, Hashable {
        public let key: ContactKey
        public let alias: String
        public let addedAt: UnixMillis
        public let lastMessageAt: UnixMillis?
        public let isAutoAdded: Bool
        public let notificationsMuted: Bool
        public let realtimeUpdatesDisabled: Bool
        /// From a `kachat_contacts_wallet_<address>` list, the newer source (issue 12 item 7),
        /// rather than the older global `kachat_contacts`.
        public let fromWalletList: Bool
    }

    /// An element that could not be used (bad address or date), with where it was.
    public struct Skipped: Sendable, Hashable {
        public let key: String
        public let index: Int?
        public let reason: String
    }

    public static let walletKeyPrefix = "kachat_contacts_wallet_"
    public static let legacyKey = "kachat_contacts"

    public let entries: [Entry]
    public let skipped: [Skipped]
    /// Top-level keys that are not contact lists.
    public let ignoredKeys: [String]

    /// Decodes the file. `defaultWallet` owns the legacy `kachat_contacts` list.
    public init(json bytes: some Sequence<UInt8>, defaultWallet: ContactAddress) throws(LegacyMigrationError) {
        let root: JSONValue
        do {
            root = try JSONParser(limits: .init(maxBytes: 1 << 30, maxDepth: 64)).parse(bytes)
        } catch {
            throw .notJSON(reason: error.description)
        }
        guard let object = root.objectValue else { throw .notAnObject }
        var entries: [Entry] = []
        var skipped: [Skipped] = []
        var ignored: [String] = []
        for member in object.members {
            let wallet: ContactAddress
            let fromWalletList = member.key != Self.legacyKey
            if member.key == Self.legacyKey {
                wallet = defaultWallet
            } else if member.key.hasPrefix(Self.walletKeyPrefix) {
                do {
                    wallet = try ContactAddress(normalizing: member.key.dropFirst(Self.walletKeyPrefix.count))
                } catch {
                    skipped.append(Skipped(key: member.key, index: nil, reason: "wallet \(error.description)"))
                    continue
                }
            } else {
                ignored.append(member.key)
                continue
            }
            guard let array = member.value.arrayValue else { throw .valueNotArray(key: member.key) }
            for (index, element) in array.enumerated() {
                guard let contact = element.objectValue else { throw .contactNotObject(key: member.key, index: index) }
                switch Self.entry(from: contact, wallet: wallet, fromWalletList: fromWalletList) {
                case .success(let entry): entries.append(entry)
                case .failure(let reason): skipped.append(Skipped(key: member.key, index: index, reason: reason.text))
                }
            }
        }
        self.entries = entries
        self.skipped = skipped
        self.ignoredKeys = ignored
    }

    private struct Reason: Error { let text: String }

    private static func entry(from contact: JSONObject, wallet: ContactAddress, fromWalletList: Bool)
        -> Result<Entry, Reason>
    {
        guard let addressText = contact["address"]?.stringValue else {
            return .failure(Reason(text: "address missing"))
        }
        let address: ContactAddress
        do { address = try ContactAddress(normalizing: addressText) } catch {
            return .failure(Reason(text: error.description))
        }
        guard let addedSeconds = contact["addedAt"]?.numberValue,
            let addedAt = UnixMillis(secondsSinceReferenceDate: addedSeconds)
        else { return .failure(Reason(text: "addedAt missing or not a date")) }
        let lastMessageAt = contact["lastMessageAt"]?.numberValue.flatMap(UnixMillis.init(secondsSinceReferenceDate:))
        // `notificationModeOverride` (off|noSound|sound) superseded the legacy Boolean; `off` means muted.
        let muted: Bool =
            if let mode = contact["notificationModeOverride"]?.stringValue {
                mode == "off"
            } else {
                contact["notificationsMuted"]?.boolValue ?? false
            }
        return .success(
            Entry(
                key: ContactKey(wallet: wallet, address: address),
                alias: contact["alias"]?.stringValue ?? "",
                addedAt: addedAt,
                lastMessageAt: lastMessageAt,
                isAutoAdded: contact["isAutoAdded"]?.boolValue ?? false,
                notificationsMuted: muted,
                realtimeUpdatesDisabled: contact["realtimeUpdatesDisabled"]?.boolValue ?? false,
                fromWalletList: fromWalletList))
    }
}

extension LegacyContactList.Entry {
    /// The entry as a first incarnation with every register at a floor stamp (wall 0, replica
    /// `legacy`, §3.3 "floor stamps"), so any real edit on any device beats it. Two devices
    /// migrating the same contact produce records that merge to one.
    ///
    /// Among migrated values the floor stamp's counter carries their precedence (issue 12 item
    /// 7), so the same value wins whatever the order of the snapshot and whichever device
    /// migrated it: a user-given alias beats an auto one, an explicit add beats an auto-add, and
    /// then the wallet-scoped list beats the older global one.
    public var record: ContactRecord {
        let source: UInt16 = fromWalletList ? 1 : 0
        return ContactRecord(
            key: key, causalLength: 1, isPurged: false, deletedAt: nil,
            payload: ContactPayload(
                addedAt: addedAt, lastMessageAt: lastMessageAt,
                userAlias: LWWRegister(alias, stamp: Self.floor(aliasRank * 2 + source)),
                knsName: LWWRegister("", stamp: Self.floor(0)),
                isAutoAdded: LWWRegister(isAutoAdded, stamp: Self.floor(isAutoAdded ? source : 2 + source)),
                notificationsMuted: LWWRegister(notificationsMuted, stamp: Self.floor(source)),
                realtimeUpdatesDisabled: LWWRegister(realtimeUpdatesDisabled, stamp: Self.floor(source))))
    }

    /// 2 for a name on a contact the user added, 1 for a name on an auto-added contact (the app
    /// may have set it), 0 for an empty, auto (the address's last 8 characters) or KNS `.kas`
    /// alias (timeline-and-contacts §3.4's "empty/auto/.kas" aliases).
    var aliasRank: UInt16 {
        if alias.isEmpty || alias == key.address.autoAlias || alias.hasSuffix(".kas") { return 0 }
        return isAutoAdded ? 1 : 2
    }

    /// ``HLCTimestamp/legacyFloor`` with `rank` as its counter: still below every stamp a real
    /// clock issues (their wall is the real time).
    static func floor(_ rank: UInt16) -> HLCTimestamp {
        HLCTimestamp(wallMillis: 0, counter: rank, replica: HLCTimestamp.legacyFloor.replica)
    }
}
