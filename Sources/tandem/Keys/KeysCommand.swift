import ArgumentParser
import ExtendedKeyText
import Foundation
import KaspaCrypto
import SecretFiles
import TandemBasics
import TandemProfile
import TandemWallet

/// `tandem keys …`: the profile's wallet (a seed phrase or a raw key) and the passphrase that
/// protects its secrets (issue 44).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make, import, show or protect the profile's wallet; list the account's device keys.",
        subcommands: [
            New.self, Import.self, Show.self, Export.self, Addresses.self, Protect.self, Unprotect.self, Devices.self,
        ]
    )

    /// What `keys new`, `import` and `show` print. `mnemonic` only from `keys new`.
    struct Output: Encodable {
        var mnemonic: String?
        let address: String
        let publicKey: String
        let source: WalletSource
        /// The chatting key's BIP-32 path (seed-phrase wallets).
        let path: String?
        let account: UInt32?
        let protected: Bool
    }

    static func output(_ profile: Profile, network: KaspaNetwork) throws(ProfileError) -> Output {
        let seed = try profile.walletSeed()
        let key: PrivateKey
        if let seed { key = try seed.chattingKey() } else { key = try profile.walletKey() }
        return Output(
            mnemonic: nil,
            address: KaspaAddress(publicKey: key.xOnlyPublicKey, network: network).description,
            publicKey: Hex.encode(key.xOnlyPublicKey.rawRepresentation),
            source: seed == nil ? .raw : .mnemonic,
            path: try seed?.chattingPath.description, account: seed?.account, protected: profile.isProtected)
    }

    static func show(_ output: Output, json: Bool) throws {
        if json { return try CommandIO.printJSON(output) }
        var lines = [
            "address: \(output.address)", "publicKey: \(output.publicKey)", "source: \(output.source.rawValue)",
        ]
        if let path = output.path { lines.append("path: \(path)") }
        lines.append("protected: \(output.protected ? "yes" : "no")")
        CommandIO.write(lines.joined(separator: "\n") + "\n")
    }

    /// Runs `body`, a profile's errors as one line.
    static func profileCall<T>(_ body: () throws(ProfileError) -> T) throws -> T {
        do { return try body() } catch { throw CLIError(error.description) }
    }

    /// `--passphrase-file` on a profile that is not protected yet: protect it (empty) first, so
    /// the new secret is written encrypted and never lands in a plain file.
    static func startProtected(_ options: ProfileOptions, cost: KeystoreCostOption) throws {
        let profile = try options.value
        guard let file = options.passphraseFile, !profile.isProtected else { return }
        let passphrase = try ProfileOptions.readPassphraseFile(file)
        try profileCall { () throws(ProfileError) in
            try profile.protectSecrets(passphrase: passphrase, cost: cost.cost)
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Make a wallet from a fresh BIP-39 seed phrase and show the words once.",
            discussion: """
                The chatting identity is m/44'/111111'/<account>'/0/0 of the words, as in KaChat and \
                Kasia web. Write the words down: they are the wallet. With --passphrase-file the \
                profile's secrets start encrypted. Refuses to replace an existing wallet.
                """)

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: "Number of words: 12 or 24.") var words = 24
        @Option(name: .long, help: "BIP-44 account of the chatting key.") var account: UInt32 = 0
        @Option(name: .long, help: "Network of the printed address.") var network: KaspaNetwork = .mainnet
        @OptionGroup var cost: KeystoreCostOption
        @Flag(name: .long, help: "Print {\"mnemonic\",\"address\",\"publicKey\",\"source\",\"path\",…} as JSON.")
        var json = false

        func validate() throws {
            guard words == 12 || words == 24 else { throw ValidationError("--words must be 12 or 24") }
            guard account < ChildNumber.hardenedBit else { throw ValidationError("--account must be below 2^31") }
        }

        func run() throws {
            let opened = try profile.value
            try profileCall { () throws(ProfileError) in try opened.refuseExistingWallet() }
            try KeysCommand.startProtected(profile, cost: cost)
            var output = try profileCall { () throws(ProfileError) in
                let mnemonic = try opened.createWalletSeed(wordCount: words, account: account)
                var output = try KeysCommand.output(opened, network: network)
                output.mnemonic = mnemonic.phrase
                return output
            }
            if json { return try CommandIO.printJSON(output) }
            CommandIO.write("mnemonic: \(output.mnemonic ?? "")\n")
            output.mnemonic = nil
            try KeysCommand.show(output, json: false)
            CommandIO.writeError("tandem: write the \(words) words down and keep them safe; they are the wallet")
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Open an existing wallet from its BIP-39 seed phrase (KaChat, Kasia web, rusty-kaspa).",
            discussion: """
                The words come from standard input (--mnemonic-stdin) or a prompt at a terminal, \
                never from the command line. A wrong word, checksum or length writes nothing. \
                Kasia web's wallets made before September 2025 ("legacy") use --account 1.
                """)

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Read the words from standard input.") var mnemonicStdin = false
        @Option(name: .customLong("bip39-passphrase-file"), help: "File holding the wallet's BIP-39 passphrase.")
        var bip39PassphraseFile: String?
        @Option(name: .long, help: "BIP-44 account of the chatting key.") var account: UInt32 = 0
        @Option(name: .long, help: "Network of the printed address.") var network: KaspaNetwork = .mainnet
        @OptionGroup var cost: KeystoreCostOption
        @Flag(name: .long, help: "Print {\"address\",\"publicKey\",\"source\",\"path\",…} as JSON.") var json = false

        func validate() throws {
            guard account < ChildNumber.hardenedBit else { throw ValidationError("--account must be below 2^31") }
        }

        func run() throws {
            let words: String
            if mnemonicStdin {
                words = try CommandIO.readStandardInputText()
            } else if SecretPrompt.isInteractive {
                words = try SecretPrompt.askSecret("Seed phrase (12 or 24 words): ")
            } else {
                throw CLIError("give the seed phrase on standard input with --mnemonic-stdin")
            }
            let bip39Passphrase = try bip39PassphraseFile.map(ProfileOptions.readPassphraseFile)
            let mnemonic: Mnemonic
            do { mnemonic = try Mnemonic(phrase: words) } catch { throw CLIError("seed phrase refused: \(error)") }
            guard Mnemonic.kaspaWordCounts.contains(mnemonic.words.count) else {
                throw CLIError("seed phrase refused: \(MnemonicError.wordCount(mnemonic.words.count))")
            }
            let opened = try profile.value
            try profileCall { () throws(ProfileError) in try opened.refuseExistingWallet() }
            try KeysCommand.startProtected(profile, cost: cost)
            let output = try profileCall { () throws(ProfileError) in
                try opened.importWalletSeed(
                    WalletSeed(mnemonic: mnemonic, passphrase: bip39Passphrase, account: account))
                return try KeysCommand.output(opened, network: network)
            }
            try KeysCommand.show(output, json: json)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the wallet's address, public key, source and path.")

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: "Network of the printed address.") var network: KaspaNetwork = .mainnet
        @Flag(
            name: .long,
            help: "Print {\"address\",\"publicKey\",\"source\",\"path\",\"account\",\"protected\"} as JSON.")
        var json = false

        func run() throws {
            let opened = try profile.value
            try KeysCommand.show(
                profileCall { () throws(ProfileError) in try KeysCommand.output(opened, network: network) }, json: json)
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Show the wallet's seed phrase again, its chatting key, or its account's kpub.",
            discussion: """
                --mnemonic prints the words (refused for a wallet made from a raw key); --key prints \
                the chatting private key as 64 hex characters, which `kasia` and `kaspa tx` read \
                with --key-file: both are the wallet, keep what they print private. --kpub prints the \
                extended public key of m/44'/111111'/<account>' (kpub, or ktub with --network \
                testnet), which watch-only Kaspa wallets import: it shows every address, spends none.
                """)

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Show the BIP-39 words.") var mnemonic = false
        @Flag(name: .long, help: "Show the chatting private key (64 hex characters).") var key = false
        @Flag(name: .long, help: "Show the account's extended public key (kpub).") var kpub = false
        @Option(name: .long, help: "Network of the kpub (mainnet: kpub; others: ktub).") var network: KaspaNetwork =
            .mainnet
        @Flag(
            name: .long,
            help: "With --mnemonic: print {\"mnemonic\",\"address\",\"account\",\"bip39Passphrase\"} as JSON.")
        var json = false

        struct Words: Encodable {
            let mnemonic: String
            let address: String
            let account: UInt32
            /// Whether the wallet also needs its BIP-39 passphrase (never printed).
            let bip39Passphrase: Bool
        }

        func validate() throws {
            guard [mnemonic, key, kpub].filter({ $0 }).count == 1 else {
                throw ValidationError("say what to export: one of --mnemonic, --key or --kpub")
            }
            guard mnemonic || !json else { throw ValidationError("--json goes with --mnemonic") }
        }

        func run() throws {
            let opened = try profile.value
            if key {
                let hex = try profileCall { () throws(ProfileError) in try opened.walletKey().hexRepresentation }
                return CommandIO.write(hex + "\n")
            }
            if kpub {
                let text = try profileCall { () throws(ProfileError) in
                    let seed = try opened.requireWalletSeed()
                    return try WalletKeyChains.accountKey(of: seed).extendedPublicKey.serialized(.kaspa(network))
                }
                return CommandIO.write(text + "\n")
            }
            let words = try profileCall { () throws(ProfileError) in
                let seed = try opened.requireWalletSeed()
                return Words(
                    mnemonic: seed.mnemonic,
                    address: try KaspaAddress(publicKey: seed.chattingKey().xOnlyPublicKey).description,
                    account: seed.account, bip39Passphrase: seed.passphrase != nil)
            }
            if json { return try CommandIO.printJSON(words) }
            CommandIO.write("\(words.mnemonic)\n")
            if words.bip39Passphrase {
                CommandIO.writeError("tandem: this wallet also needs its BIP-39 passphrase, which is not shown")
            }
        }
    }
}

/// The scrypt cost of a new keystore, hidden: tests make cheap ones.
struct KeystoreCostOption: ParsableArguments {
    @Option(name: .customLong("keystore-log-n"), help: ArgumentHelp("scrypt's log2(N).", visibility: .hidden))
    var logN: Int?

    func validate() throws {
        if let logN, !(10...20).contains(logN) { throw ValidationError("--keystore-log-n must be 10...20") }
    }

    var cost: KeystoreFile.Cost {
        logN.map { KeystoreFile.Cost(n: 1 << $0, r: 8, p: 1) } ?? .standard
    }
}
