import ArgumentParser
import Foundation
import KaspaCrypto
import TandemProfile
import TandemWallet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension KeysCommand {
    struct Protect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "protect",
            abstract: "Encrypt every secret of the profile under a passphrase.",
            discussion: """
                The seed, wallet key, task identity key and session cookies move into keystore.json \
                (scrypt and ChaCha20-Poly1305) and their plain files are removed. Every later command \
                that needs one asks for the passphrase: --passphrase-file, $TANDEM_PASSPHRASE_FILE or \
                a prompt at a terminal.
                """)

        @OptionGroup var profile: ProfileOptions
        @OptionGroup var cost: KeystoreCostOption
        @Flag(name: .long, help: "Print {\"protected\":true,\"secrets\":[names]} as JSON.") var json = false

        func run() throws {
            let opened = try profile.value
            guard !opened.isProtected else { throw CLIError(ProfileError.alreadyProtected.description) }
            let passphrase = try KeysCommand.newPassphrase(profile)
            let names = try profileCall { () throws(ProfileError) in
                try opened.protectSecrets(passphrase: passphrase, cost: cost.cost, checkpoint: Self.pauseForCrashTests)
                return try opened.secretNames()
            }
            try KeysCommand.printProtection(protected: true, names: names, json: json)
        }

        /// `TANDEM_TEST_PAUSE_PROTECT=<stage>` (hidden, for the kill -9 tests): at that stage, say
        /// so on standard output and wait to be killed.
        static func pauseForCrashTests(_ stage: ProtectStage) {
            guard ProcessInfo.processInfo.environment["TANDEM_TEST_PAUSE_PROTECT"] == stage.rawValue else { return }
            FileHandle.standardOutput.write(Data("paused at \(stage.rawValue)\n".utf8))
            while true { _ = pause() }
        }
    }

    struct Unprotect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unprotect", abstract: "Decrypt the profile's secrets back into plain 0600 files.")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print {\"protected\":false,\"secrets\":[names]} as JSON.") var json = false

        func run() throws {
            let opened = try profile.value
            guard opened.isProtected else { throw CLIError(ProfileError.notProtected.description) }
            guard
                let passphrase = try ProfileOptions.passphrase(
                    file: profile.passphraseFile, prompt: "Passphrase for the profile \(opened.directory.path): ")
            else { throw CLIError(ProfileError.passphraseRequired(hint: opened.passphraseHint).description) }
            let names = try profileCall { () throws(ProfileError) in
                try opened.unprotectSecrets(passphrase: passphrase)
                return try opened.secretNames()
            }
            try KeysCommand.printProtection(protected: false, names: names, json: json)
        }
    }

    struct Protection: Encodable {
        let protected: Bool
        let secrets: [String]
    }

    static func printProtection(protected: Bool, names: [String], json: Bool) throws {
        if json { return try CommandIO.printJSON(Protection(protected: protected, secrets: names)) }
        let list = names.isEmpty ? "no secrets yet" : names.joined(separator: ", ")
        CommandIO.write(protected ? "protected: \(list)\n" : "unprotected: \(list)\n")
    }

    /// The new passphrase: from a file or `$TANDEM_PASSPHRASE_FILE`, else typed twice at a terminal.
    static func newPassphrase(_ options: ProfileOptions) throws -> String {
        let prompt = "New passphrase for the profile \(try options.value.directory.path): "
        guard let first = try ProfileOptions.passphrase(file: options.passphraseFile, prompt: prompt) else {
            throw CLIError(
                "give the new passphrase with --passphrase-file FILE, $\(ProfileOptions.passphraseVariable) or at a terminal"
            )
        }
        if options.passphraseFile == nil, ProcessInfo.processInfo.environment[ProfileOptions.passphraseVariable] == nil
        {
            guard try SecretPrompt.askSecret("Again: ") == first else { throw CLIError("the passphrases differ") }
        }
        return first
    }
}

extension KeysCommand {
    struct Addresses: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "addresses",
            abstract: "List the first addresses of the wallet's receive, change and spending chains (offline).",
            discussion: """
                A seed-phrase wallet's chains: m/44'/111111'/<account>'/0/i (receive; index 0 is the \
                chatting address), …/1/i (change) and KaChat's spending account m/44'/111111'/1'/0/i. \
                `tandem wallet addresses` shows which of them hold funds.
                """)

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: "Addresses per chain.") var count: UInt32 = 5
        @Option(name: .long, help: "Network of the addresses.") var network: KaspaNetwork = .mainnet
        @Flag(name: .long, help: "Print {\"addresses\":[{\"chain\",\"index\",\"path\",\"address\"}]} as JSON.")
        var json = false

        struct Output: Encodable { let addresses: [WalletKeyChains.Address] }

        func validate() throws {
            guard (1...1000).contains(count) else { throw ValidationError("--count must be 1...1000") }
        }

        func run() throws {
            let opened = try profile.value
            let addresses = try profileCall { () throws(ProfileError) in
                let seed = try opened.requireWalletSeed()
                return try WalletKeyChains(seed: seed).addresses(count: count, network: network)
            }
            if json { return try CommandIO.printJSON(Output(addresses: addresses)) }
            for address in addresses {
                CommandIO.write("\(address.chain.rawValue) \(address.index)  \(address.path)  \(address.address)\n")
            }
        }
    }
}
