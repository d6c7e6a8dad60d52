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
                switch Self.entry(from: contact, wallet: wallet) {
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

    private static func entry(from contact: JSONObject, wallet: ContactAddress) -> Result<Entry, Reason> {
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
                realtimeUpdatesDisabled: contact["realtimeUpdatesDisabled"]?.boolValue ?? false))
    }
}

extension LegacyContactList.Entry {
    /// The entry as a first incarnation with every register at the floor stamp, so any real edit
    /// on any device beats it (§3.3 "floor stamps"). Two devices migrating the same contact
    /// produce records that merge to one.
    public var record: ContactRecord {
        let floor = HLCTimestamp.legacyFloor
        return ContactRecord(
            key: key, causalLength: 1, isPurged: false, deletedAt: nil,
            payload: ContactPayload(
                addedAt: addedAt, lastMessageAt: lastMessageAt,
                userAlias: LWWRegister(alias, stamp: floor), knsName: LWWRegister("", stamp: floor),
                isAutoAdded: LWWRegister(isAutoAdded, stamp: floor),
                notificationsMuted: LWWRegister(notificationsMuted, stamp: floor),
                realtimeUpdatesDisabled: LWWRegister(realtimeUpdatesDisabled, stamp: floor)))
    }
}
