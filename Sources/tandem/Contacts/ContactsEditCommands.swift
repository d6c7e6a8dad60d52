import ArgumentParser
import Contacts

struct ContactsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a contact (or re-add a deleted one with fresh fields).")

    @OptionGroup var profile: ProfileOptions
    @Argument(help: "Kaspa address, any case, with or without kaspa:.") var address: String
    @Option(name: .long, help: "The alias to show.") var alias: String?
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    func run() throws {
        let context = try ContactsContext(profile)
        let address = try parseContactAddress(address)
        try printContact(try context.perform { try context.store.add(address, wallet: context.wallet, alias: alias) }, json: json)
    }
}

struct ContactsRename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Set the contact's alias (an empty alias falls back to the KNS name).")

    @OptionGroup var profile: ProfileOptions
    @Argument(help: "Kaspa address of the contact.") var address: String
    @Argument(help: "The new alias.") var alias: String
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    func run() throws {
        let context = try ContactsContext(profile)
        let address = try parseContactAddress(address)
        try printContact(try context.perform { try context.store.rename(address, wallet: context.wallet, to: alias) }, json: json)
    }
}

struct ContactsSetKNS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-kns",
        abstract: "Record a KNS name for the contact (shown unless the alias is custom).")

    @OptionGroup var profile: ProfileOptions
    @Argument(help: "Kaspa address of the contact.") var address: String
    @Argument(help: "The KNS name, e.g. alice.kas (empty to clear).") var name: String
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    func run() throws {
        let context = try ContactsContext(profile)
        let address = try parseContactAddress(address)
        try printContact(try context.perform { try context.store.setKNSName(address, wallet: context.wallet, to: name) },
                         json: json)
    }
}

struct ContactsMute: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute", abstract: "Mute (on) or unmute (off) the contact's notifications.")

    @OptionGroup var profile: ProfileOptions
    @Argument(help: "Kaspa address of the contact.") var address: String
    @Argument(help: "on or off.") var state: OnOffSwitch
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    func run() throws {
        let context = try ContactsContext(profile)
        let address = try parseContactAddress(address)
        try printContact(try context.perform {
            try context.store.setNotificationsMuted(address, wallet: context.wallet, state.isOn)
        }, json: json)
    }
}

struct ContactsRealtime: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime", abstract: "Turn real-time updates for the contact on or off.")

    @OptionGroup var profile: ProfileOptions
    @Argument(help: "Kaspa address of the contact.") var address: String
    @Argument(help: "on or off.") var state: OnOffSwitch
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    func run() throws {
        let context = try ContactsContext(profile)
        let address = try parseContactAddress(address)
        try printContact(try context.perform {
            try context.store.setRealtimeUpdatesDisabled(address, wallet: context.wallet, !state.isOn)
        }, json: json)
    }
}

struct ContactsRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete the contact (a tombstone, purged after 30 days).")

    @OptionGroup var profile: ProfileOptions
    @Argument(help: "Kaspa address of the contact.") var address: String
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    func run() throws {
        let context = try ContactsContext(profile)
        let address = try parseContactAddress(address)
        try printContact(try context.perform { try context.store.remove(address, wallet: context.wallet) }, json: json)
    }
}

struct ContactsList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the wallet's contacts in address order.")

    @OptionGroup var profile: ProfileOptions
    @Flag(name: .long, help: "Print a JSON array of contacts.") var json = false
    @Flag(name: .long, help: "Include deleted contacts not yet purged.") var all = false

    func run() throws {
        let context = try ContactsContext(profile)
        let contacts = try context.perform { try context.store.contacts(wallet: context.wallet, includeDeleted: all) }
        let outputs = contacts.map(ContactOutput.init)
        if json {
            try CommandIO.printJSON(outputs)
        } else {
            CommandIO.write(outputs.map { $0.line + "\n" }.joined())
        }
    }
}
