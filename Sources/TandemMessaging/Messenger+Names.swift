public import Contacts
public import KaspaCrypto
import TandemBasics

/// People by name (issue 51 item 5).
extension Messenger {
    /// The peer `text` means: a Kaspa address, or the name of one of this wallet's live contacts
    /// (its shown name, own alias or KNS name, without case or accents). Unknown and ambiguous
    /// names are ``ContactsError`` cases naming the matches; nothing is guessed.
    public nonisolated func peer(_ text: String) throws -> KaspaAddress {
        let address = try contacts.resolve(text, wallet: wallet)
        do { return try KaspaAddress(address.description) } catch {
            throw ContactsError.invalidAddress(text, reason: error.description)
        }
    }

    /// What a human line calls `address`: the live contact's name, else the one short form of
    /// the address (``AddressText/short(_:)``).
    public nonisolated func displayName(for address: KaspaAddress) -> String {
        guard let contact = try? contacts.contact(ContactAddress(address), wallet: wallet), !contact.isDeleted else {
            return AddressText.short(address.description)
        }
        return contact.displayName
    }
}
