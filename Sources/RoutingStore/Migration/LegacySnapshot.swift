import CanonicalJSON
public import Foundation
public import KasiaProtocol
public import KaspaCrypto

/// KaChat's routing data before deterministic aliases, as a JSON file whose top-level keys are
/// the UserDefaults keys the app used (seed 000 §4.1, kasia-protocol §7–8):
///
/// ```json
/// {
///   "conversationAliases": { "kaspa:q…": ["a1b2c3d4e5f6"] },
///   "ourAliases":          { "kaspa:q…": ["0f1e2d3c4b5a"] },
///   "kachat_contacts_wallet_kaspa:q…": [ { "id": "…", "address": "kaspa:q…", "alias": "…", "addedAt": 700000000 } ],
///   "kachat_contacts": [ … ]
/// }
/// ```
///
/// - `conversationAliases`: the peer's legacy aliases (our legacy incoming set).
/// - `ourAliases`: our legacy aliases for the peer (our legacy outgoing set).
/// - `kachat_contacts_wallet_<address>` and the older `kachat_contacts`: arrays of KaChat
///   `Contact` objects; only `address` matters here, every other field is ignored. Only the list
///   of the wallet being migrated is read, plus the legacy unscoped list.
/// - Other keys (`conversationPrimaryAliases`, `ourPrimaryAliases`, `conversationIds`, …) are
///   accepted and ignored: the primary alias is recomputed as the smallest.
///
/// Addresses are normalised as KaChat did (lower-cased; `kaspa:` added when missing). Entries
/// that cannot be used are listed in ``skipped`` with a reason instead of failing the file.
public struct LegacySnapshot: Sendable {
    public struct Entry: Sendable, Equatable {
        /// The contact's key, validated on the curve once while parsing.
        public let key: XOnlyPublicKey
        public var legacyIncoming: Set<Alias> = []
        public var legacyOutgoing: Set<Alias> = []
    }

    /// Every known contact with its legacy aliases (empty sets for contacts without any).
    public private(set) var contacts: [KaspaAddress: Entry] = [:]
    /// Inputs that were ignored, with why.
    public private(set) var skipped: [String] = []
    /// Each distinct address text is parsed and lifted once, though KaChat repeats it per map.
    private var normalised: [String: (KaspaAddress, XOnlyPublicKey)?] = [:]

    public static let contactsKeyPrefix = "kachat_contacts_wallet_"
    public static let legacyContactsKey = "kachat_contacts"

    /// Parses the snapshot for the wallet at `wallet`.
    public init(json data: Data, wallet: KaspaAddress) throws(RoutingStoreError) {
        let object: JSONObject
        do {
            guard
                case .object(let parsed) = try JSONParser(limits: .init(maxBytes: 256 << 20, maxDepth: 32)).parse(data)
            else {
                throw RoutingStoreError.invalidSnapshot("the top level is not a JSON object")
            }
            object = parsed
        } catch let error as RoutingStoreError {
            throw error
        } catch {
            throw .invalidSnapshot("not JSON (\(error))")
        }
        try addAliasMap(object["conversationAliases"], name: "conversationAliases", incoming: true)
        try addAliasMap(object["ourAliases"], name: "ourAliases", incoming: false)
        for key in [Self.contactsKeyPrefix + wallet.description, Self.legacyContactsKey] {
            guard let value = object[key] else { continue }
            guard case .array(let list) = value else { throw .invalidSnapshot("\(key) is not an array") }
            for item in list {
                guard let address = item["address"]?.stringValue else {
                    skipped.append("\(key): a contact without an address")
                    continue
                }
                if let (contact, xOnly) = normalise(address, context: key), contacts[contact] == nil {
                    contacts[contact] = Entry(key: xOnly)
                }
            }
        }
    }

    private mutating func addAliasMap(_ value: JSONValue?, name: String, incoming: Bool) throws(RoutingStoreError) {
        guard let value else { return }
        guard case .object(let map) = value else { throw .invalidSnapshot("\(name) is not an object") }
        for member in map.members {
            let addressText = member.key
            guard let (contact, xOnly) = normalise(addressText, context: name) else { continue }
            let texts = member.value.arrayValue ?? [member.value]
            var entry = contacts[contact] ?? Entry(key: xOnly)
            for text in texts.compactMap(\.stringValue) {
                guard let alias = try? Alias(text) else {
                    skipped.append("\(name)[\(addressText)]: '\(text)' is not a 12-hex alias")
                    continue
                }
                if incoming { entry.legacyIncoming.insert(alias) } else { entry.legacyOutgoing.insert(alias) }
            }
            contacts[contact] = entry
        }
    }

    /// KaChat lower-cased input and assumed mainnet when the prefix was missing. Only Schnorr
    /// (v0) contacts can have deterministic aliases; others are reported.
    private mutating func normalise(_ text: String, context: String) -> (KaspaAddress, XOnlyPublicKey)? {
        if let known = normalised[text] { return known }
        let result = parseContact(text, context: context)
        normalised[text] = .some(result)
        return result
    }

    private mutating func parseContact(_ text: String, context: String) -> (KaspaAddress, XOnlyPublicKey)? {
        // Fast path: KaChat stored addresses normalised; only odd entries pay for the folding.
        var lowered = text
        if text.utf8.contains(where: { (0x41...0x5a).contains($0) || $0 == 0x20 || $0 == 0x0a || $0 == 0x09 }) {
            lowered = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        }
        if !lowered.utf8.contains(UInt8(ascii: ":")) { lowered = "kaspa:" + lowered }
        guard let address = try? KaspaAddress(lowered) else {
            skipped.append("\(context): '\(text)' is not a Kaspa address")
            return nil
        }
        guard let key = try? address.xOnlyPublicKey() else {
            skipped.append("\(context): \(address) has no x-only key for deterministic aliases")
            return nil
        }
        return (address, key)
    }
}
