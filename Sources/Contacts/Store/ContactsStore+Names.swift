import Foundation
import TandemBasics

/// People by name (issue 51 item 5): everywhere an address is taken, a contact's name works too.
extension ContactsStore {
    /// The address `text` means for `wallet`: `text` itself when it is a Kaspa address (any case,
    /// with or without the prefix), else the one live contact whose shown name, own alias or KNS
    /// name is `text` (compared without case or accents). No match is
    /// ``ContactsError/unknownName(_:)``; several are ``ContactsError/ambiguousName(_:matches:)``,
    /// never a guess.
    public func resolve(_ text: String, wallet: ContactAddress) throws -> ContactAddress {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let address = try? ContactAddress(normalizing: trimmed) { return address }
        let matches = try contacts(named: trimmed, wallet: wallet)
        switch matches.count {
        case 0: throw ContactsError.unknownName(trimmed)
        case 1: return matches[0].address
        default:
            throw ContactsError.ambiguousName(
                trimmed, matches: matches.map { "\($0.address) (\($0.alias))" }.sorted())
        }
    }

    /// The live contacts of `wallet` that answer to `name`.
    public func contacts(named name: String, wallet: ContactAddress) throws -> [Contact] {
        let wanted = TextFolding.folded(name)
        guard !wanted.isEmpty else { return [] }
        return try contacts(wallet: wallet).filter { contact in
            [contact.alias, contact.userAlias, contact.knsName].contains {
                !$0.isEmpty && TextFolding.folded($0) == wanted
            }
        }
    }
}
