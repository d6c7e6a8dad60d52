import ArgumentParser
import Contacts

/// What every single-contact edit takes — the profile, the ADDRESS and `--json` — and the one
/// path each edit runs: open the profile's store, normalise the address, apply, print.
struct ContactEditArguments: ParsableArguments {
    @OptionGroup var profile: ProfileOptions
    @Argument(
        help: ArgumentHelp(
            "The contact: its Kaspa address (any case, with or without kaspa:) or its name.",
            valueName: "address|name"))
    var address: String
    @Flag(name: .long, help: "Print the contact as JSON.") var json = false

    /// `byName`: the argument may name an existing contact (issue 51 item 5); `add` takes an
    /// address only.
    func edit(
        byName: Bool = true,
        _ change: (_ store: ContactsStore, _ wallet: ContactAddress, _ address: ContactAddress) throws -> Contact
    ) throws {
        let context = try ContactsContext(profile)
        let text = address
        let contact =
            byName && !text.contains(":")
            ? try context.perform { try context.store.resolve(text, wallet: context.wallet) }
            : try parseContactAddress(text)
        try printContact(try context.perform { try change(context.store, context.wallet, contact) }, json: json)
    }
}

extension ContactsCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a contact (or re-add a deleted one with fresh fields).")

        @OptionGroup var target: ContactEditArguments
        @Option(name: .long, help: "The alias to show.") var alias: String?

        func run() throws {
            try target.edit(byName: false) { store, wallet, address in
                try store.add(address, wallet: wallet, alias: alias)
            }
        }
    }
}

extension ContactsCommand {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Set the contact's alias (an empty alias falls back to the KNS name).")

        @OptionGroup var target: ContactEditArguments
        @Argument(help: "The new alias.") var alias: String

        func run() throws {
            try target.edit { store, wallet, address in try store.rename(address, wallet: wallet, to: alias) }
        }
    }
}

extension ContactsCommand {
    struct SetKNS: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-kns",
            abstract: "Record a KNS name for the contact (shown unless the alias is custom).")

        @OptionGroup var target: ContactEditArguments
        @Argument(help: "The KNS name, e.g. alice.kas (empty to clear).") var name: String

        func run() throws {
            try target.edit { store, wallet, address in try store.setKNSName(address, wallet: wallet, to: name) }
        }
    }
}

extension ContactsCommand {
    struct Mute: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mute", abstract: "Mute (on) or unmute (off) the contact's notifications.")

        @OptionGroup var target: ContactEditArguments
        @Argument(help: "on or off.") var state: OnOffSwitch

        func run() throws {
            try target.edit { store, wallet, address in
                try store.setNotificationsMuted(address, wallet: wallet, state.isOn)
            }
        }
    }
}

extension ContactsCommand {
    struct Realtime: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "realtime", abstract: "Turn real-time updates for the contact on or off.")

        @OptionGroup var target: ContactEditArguments
        @Argument(help: "on or off.") var state: OnOffSwitch

        func run() throws {
            try target.edit { store, wallet, address in
                try store.setRealtimeUpdatesDisabled(address, wallet: wallet, !state.isOn)
            }
        }
    }
}

extension ContactsCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete the contact (a tombstone, purged after 30 days).")

        @OptionGroup var target: ContactEditArguments

        func run() throws {
            try target.edit { store, wallet, address in try store.remove(address, wallet: wallet) }
        }
    }
}

extension ContactsCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the wallet's contacts in address order.")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print a JSON array of contacts.") var json = false
        @Flag(name: .long, help: "Include deleted contacts not yet purged.") var all = false

        func run() throws {
            let context = try ContactsContext(profile)
            let contacts = try context.perform {
                try context.store.contacts(wallet: context.wallet, includeDeleted: all)
            }
            let outputs = contacts.map(ContactOutput.init)
            if json {
                try CommandIO.printJSON(outputs)
            } else {
                CommandIO.write(outputs.map { $0.line + "\n" }.joined())
            }
        }
    }
}
