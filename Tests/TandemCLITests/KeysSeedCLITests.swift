import Foundation
import KaspaCrypto
import TestSupport
import Testing

/// `tandem keys new|import|export|show|addresses` with seed phrases (issue 44 item 1).
@Suite struct KeysSeedCLITests {
    static func json(_ output: TandemProcess.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], "\(output.stderrText)")
    }

    /// The chatting address of `words` at `account`, derived here from KaspaCrypto.
    static func address(_ words: String, passphrase: String = "", account: UInt32 = 0) throws -> String {
        let master = try ExtendedPrivateKey(seed: Mnemonic(phrase: words).seed(passphrase: passphrase))
        let key = try master.derive(KaspaDerivation.chatting(account: account)).privateKey
        return KaspaAddress(publicKey: key.xOnlyPublicKey).description
    }

    @Test func newShowsTheWordsOnceAndTheirChattingAddress() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (name, count) in [("a", 24), ("b", 12)] {
            var arguments = ["keys", "new", "--json", "--profile", dir.path(name)]
            if count == 12 { arguments += ["--words", "12"] }
            let created = try Self.json(try await TandemProcess.run(arguments))
            let words = try #require(created["mnemonic"] as? String)
            #expect(words.split(separator: " ").count == count)
            #expect(created["address"] as? String == (try Self.address(words)))
            #expect(created["source"] as? String == "mnemonic")
            #expect(created["path"] as? String == "m/44'/111111'/0'/0/0")
            let shown = try Self.json(
                try await TandemProcess.run("keys", "show", "--json", "--profile", dir.path(name)))
            #expect(shown["mnemonic"] == nil)
            #expect(shown["address"] as? String == created["address"] as? String)
            let exported = try await TandemProcess.run("keys", "export", "--mnemonic", "--profile", dir.path(name))
            #expect(exported.stdoutText == words + "\n")
        }
        let human = try await TandemProcess.run("keys", "new", "--profile", dir.path("c"))
        #expect(human.status == 0)
        #expect(human.stdoutText.hasPrefix("mnemonic: "))
        #expect(human.stderrLines.count == 2, "the words' warning, and the new profile (issue 51 item 2)")
        #expect(human.stderrLines.last?.hasPrefix("tandem: created profile") == true)
    }

    @Test func importOpensTheSDKsWalletWithPassphraseAndAccount() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let vectors = try KaspaHDVectors.load().vectors
        for (index, vector) in vectors.enumerated() {
            var arguments = ["keys", "import", "--mnemonic-stdin", "--json", "--profile", dir.path("p\(index)")]
            if vector.account != 0 { arguments += ["--account", "\(vector.account)"] }
            if !vector.passphrase.isEmpty {
                try Data((vector.passphrase + "\n").utf8).write(to: dir.url.appendingPathComponent("bip39-\(index)"))
                arguments += ["--bip39-passphrase-file", dir.path("bip39-\(index)")]
            }
            let imported = try await TandemProcess.run(arguments, stdin: Data((vector.mnemonic + "\n").utf8))
            let object = try Self.json(imported)
            #expect(object["address"] as? String == vector.addresses[0].address, "vector \(index)")
            #expect(object["account"] as? Int == Int(vector.account))
            let listed = try Self.json(
                try await TandemProcess.run(
                    "keys", "addresses", "--count", "3", "--json", "--profile", dir.path("p\(index)")))
            let addresses = try #require(listed["addresses"] as? [[String: Any]])
            #expect(addresses.compactMap { $0["address"] as? String } == vector.addresses.map(\.address))
            let exported = try Self.json(
                try await TandemProcess.run(
                    "keys", "export", "--mnemonic", "--json", "--profile", dir.path("p\(index)")))
            #expect(exported["mnemonic"] as? String == vector.mnemonic)
            #expect(exported["bip39Passphrase"] as? Bool == !vector.passphrase.isEmpty)
            let kpub = try await TandemProcess.run("keys", "export", "--kpub", "--profile", dir.path("p\(index)"))
            #expect(kpub.stdoutText == vector.kpub + "\n", "vector \(index)")
        }
    }

    @Test(
        "a bad phrase exits 1 with one line and writes nothing",
        arguments: [
            ("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon", "11"),
            (
                "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon",
                "checksum"
            ),
            ("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon zzzz", "word 12"),
            (String(repeating: "abandon ", count: 17) + "agent", "18"),
        ])
    func badPhrases(words: String, reason: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let refused = try await TandemProcess.run(
            ["keys", "import", "--mnemonic-stdin", "--profile", dir.path("p")], stdin: Data(words.utf8))
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1, "\(refused.stderrText)")
        #expect(refused.stderrText.contains(reason), "\(refused.stderrText)")
        #expect(!refused.stderrText.contains("abandon"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("p")))
    }

    @Test func aRawKeyProfileHasNoWordsAndImportNeverReplacesAWallet() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = dir.path("raw")
        try FileManager.default.createDirectory(
            atPath: profile, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        FileManager.default.createFile(
            atPath: profile + "/wallet.key", contents: Data((PrivateKey.generate().hexRepresentation + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        let export = try await TandemProcess.run("keys", "export", "--mnemonic", "--profile", profile)
        #expect(export.status == 1)
        #expect(export.stderrLines.count == 1)
        #expect(export.stderrText.contains("raw key"))
        #expect(
            try Self.json(try await TandemProcess.run("keys", "show", "--json", "--profile", profile))["source"]
                as? String == "raw")
        let words = try Mnemonic.generate(wordCount: 12).phrase
        let over = try await TandemProcess.run(
            ["keys", "import", "--mnemonic-stdin", "--profile", profile], stdin: Data(words.utf8))
        #expect(over.status == 1)
        #expect(over.stderrText.contains("refusing to overwrite"))
        #expect(!FileManager.default.fileExists(atPath: profile + "/wallet.seed"))
    }
}
