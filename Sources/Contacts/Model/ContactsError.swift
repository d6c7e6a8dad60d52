/// Everything that can go wrong in the contacts store, each case naming the input at fault.
public enum ContactsError: Error, Equatable, CustomStringConvertible {
    /// A contact or wallet address that does not normalise to a valid Kaspa address.
    case invalidAddress(String, reason: String)
    /// A replica id that is not 1–32 lowercase letters or digits.
    case invalidReplicaID(String)
    /// A stored or received HLC stamp that does not parse.
    case invalidTimestamp(String)
    /// An edit names a contact the wallet does not have.
    case contactNotFound(String)
    /// An edit names a contact that is deleted (re-add it first).
    case contactDeleted(String)
    /// A stored row that no longer decodes (the file was changed outside the store).
    case corruptRow(key: String, reason: String)
    /// The store file cannot be opened or written.
    case storage(String)
    /// Text that is neither an address nor the name of a live contact (issue 51 item 5).
    case unknownName(String)
    /// A name that several live contacts answer to: their addresses and names, so the person
    /// can pick one by address.
    case ambiguousName(String, matches: [String])

    public var description: String {
        switch self {
        case .invalidAddress(let text, let reason): "address \"\(text)\": \(reason)"
        case .invalidReplicaID(let text): "replica id \"\(text)\": expected 1-32 lowercase letters or digits"
        case .invalidTimestamp(let text): "HLC stamp \"\(text)\": expected <wall ms>-<counter hex>-<replica>"
        case .contactNotFound(let address): "contact \(address) does not exist"
        case .contactDeleted(let address): "contact \(address) is deleted; add it again first"
        case .corruptRow(let key, let reason): "stored contact \(key): \(reason)"
        case .storage(let reason): "contacts store: \(reason)"
        case .unknownName(let text):
            "'\(text)' is neither a Kaspa address nor the name of a contact (`tandem contacts list` shows them)"
        case .ambiguousName(let text, let matches):
            "'\(text)' names \(matches.count) contacts: \(matches.joined(separator: ", ")); give the address"
        }
    }
}
