import ArgumentParser
import Contacts
import Foundation
import KaspaCrypto
import TandemBasics
import TandemProfile

/// `tandem contacts …`: the contacts store of the profile's wallet (issue 7).
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Contacts of the profile's wallet: edit, list, migrate KaChat lists, sync records.",
        discussion: "The store is contacts.sqlite in the profile directory; the wallet key comes from the profile.",
        subcommands: [
            Add.self, Rename.self, SetKNS.self, Mute.self, Realtime.self,
            Remove.self, List.self, Migrate.self, Purge.self,
            ExportSync.self, ImportSync.self, Sync.self,
        ]
    )
}

/// The opened store and the wallet it serves.
struct ContactsContext {
    let store: ContactsStore
    let walletKey: PrivateKey
    let wallet: ContactAddress

    init(_ options: ProfileOptions) throws {
        let profile = try options.value
        walletKey = try profile.walletKey()
        wallet = ContactAddress(KaspaAddress(publicKey: walletKey.xOnlyPublicKey))
        store = try profile.openContacts()
    }

    /// Runs a store call, turning domain errors into one CLI line.
    func perform<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ContactsError {
            throw CLIError(error.description)
        } catch let error as ContactsSyncError {
            throw CLIError(error.description)
        } catch let error as LegacyMigrationError {
            throw CLIError(error.description)
        }
    }
}

/// An ADDRESS argument: any case, with or without `kaspa:`.
func parseContactAddress(_ text: String) throws -> ContactAddress {
    do { return try ContactAddress(normalizing: text) } catch { throw CLIError("ADDRESS \(error.description)") }
}

/// `on` / `off` arguments.
enum OnOffSwitch: String, ExpressibleByArgument, CaseIterable {
    case on
    case off

    var isOn: Bool { self == .on }
}

/// The JSON shape of a contact: the seed's field names, dates as ISO 8601 UTC strings.
struct ContactOutput: Encodable {
    let address: String
    let alias: String
    let addedAt: String
    let lastMessageAt: String?
    let isAutoAdded: Bool
    let notificationsMuted: Bool
    let realtimeUpdatesDisabled: Bool
    let updatedAt: String
    let isDeleted: Bool

    init(_ contact: Contact) {
        address = contact.address.description
        alias = contact.alias
        addedAt = Self.iso(contact.addedAt)
        lastMessageAt = contact.lastMessageAt.map(Self.iso)
        isAutoAdded = contact.isAutoAdded
        notificationsMuted = contact.notificationsMuted
        realtimeUpdatesDisabled = contact.realtimeUpdatesDisabled
        updatedAt = Self.iso(contact.updatedAt)
        isDeleted = contact.isDeleted
    }

    /// `lastMessageAt` is written as `null` when absent, so every object has every field.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(alias, forKey: .alias)
        try container.encode(addedAt, forKey: .addedAt)
        try container.encode(lastMessageAt, forKey: .lastMessageAt)
        try container.encode(isAutoAdded, forKey: .isAutoAdded)
        try container.encode(notificationsMuted, forKey: .notificationsMuted)
        try container.encode(realtimeUpdatesDisabled, forKey: .realtimeUpdatesDisabled)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(isDeleted, forKey: .isDeleted)
    }

    enum CodingKeys: String, CodingKey {
        case address, alias, addedAt, lastMessageAt, isAutoAdded, notificationsMuted, realtimeUpdatesDisabled
        case updatedAt, isDeleted
    }

    static func iso(_ time: UnixMillis) -> String { time.iso8601 }

    /// One human-readable line.
    var line: String {
        var flags: [String] = []
        if isDeleted { flags.append("deleted") }
        if isAutoAdded { flags.append("auto") }
        if notificationsMuted { flags.append("muted") }
        if realtimeUpdatesDisabled { flags.append("no-realtime") }
        return "\(address)  \(alias)" + (flags.isEmpty ? "" : "  [\(flags.joined(separator: ", "))]")
    }
}

/// Prints one contact as a line or as JSON.
func printContact(_ contact: Contact, json: Bool) throws {
    let output = ContactOutput(contact)
    if json { try CommandIO.printJSON(output) } else { CommandIO.write(output.line + "\n") }
}
