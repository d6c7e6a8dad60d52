import Foundation
import KaspaCrypto
import TestSupport
import Testing

private let vectors = Result { try KasiaVectors.load() }

/// The CLI contract of issue 2, exercised on the real binary.
@Suite("tandem kaspa / kasia / keys")
struct KaspaKasiaCLITests {
    @Test func addressCommandPrintsEveryVectorForm() async throws {
        for key in try vectors.get().keys {
            #expect(
                try await TandemProcess.run("kaspa", "address", "--public-key", key.xonly).stdoutText == key
                    .address_mainnet
                    + "\n")
            #expect(
                try await TandemProcess.run("kaspa", "address", "--public-key", key.xonly, "--network", "testnet")
                    .stdoutText
                    == key.address_testnet + "\n")
            #expect(
                try await TandemProcess.run("kaspa", "address", "--public-key", key.public_key_compressed, "--ecdsa")
                    .stdoutText
                    == key.address_mainnet_ecdsa + "\n")
        }
    }

    @Test func decodePrintsNetworkVersionAndPayloadAsJSON() async throws {
        let v = try vectors.get()
        let cases: [(String, String, Int, String)] = [
            (v.keys[0].address_testnet_ecdsa, "testnet", 1, v.keys[0].public_key_compressed),
            (v.keys[0].address_mainnet, "mainnet", 0, v.keys[0].xonly),
            (v.p2sh_example.address_mainnet, "mainnet", 8, v.p2sh_example.script_hash),
        ]
        for (address, network, version, payload) in cases {
            let result = try await TandemProcess.run("kaspa", "decode", address, "--json")
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            #expect(object["network"] as? String == network)
            #expect(object["version"] as? Int == version)
            #expect(object["payload"] as? String == payload)
        }
    }

    @Test("bad input: exit 1 and one line on stderr naming the input")
    func badInputsFailWithOneLine() async throws {
        let v = try vectors.get()
        let keyDir = try TemporaryDirectory()
        defer { keyDir.remove() }
        let keyPath = keyDir.path("k")
        try Data("nothex\n".utf8).write(to: URL(fileURLWithPath: keyPath))
        let runs: [[String]] =
            v.malformed.filter { $0.input_kind == "address" && $0.expect == "reject" }
            .compactMap { $0.address }.map { ["kaspa", "decode", $0, "--json"] } + [
                ["kaspa", "address", "--public-key", "abc"],
                ["kaspa", "address", "--public-key", String(repeating: "00", count: 32)],
                ["kaspa", "address", "--public-key", v.keys[0].xonly, "--network", "moon"],
                ["kasia", "alias", "--key-file", keyPath, "--peer", v.keys[0].address_mainnet],
                ["kasia", "alias", "--key-file", "/nonexistent/key", "--peer", v.keys[0].address_mainnet],
                ["kasia", "seal", "--to", v.p2sh_example.address_mainnet],
                ["kasia", "seal", "--to", "kaspa:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq2vcfpzl0n"],
                ["kasia", "open", "--key-file", keyPath, "00"],
                ["keys", "show", "--profile", keyDir.path("no-such-profile")],
                ["kasia", "seal"],
            ]
        for arguments in runs {
            let result = try await TandemProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderrText)")
            #expect(result.stderrText.hasPrefix("tandem: "), "\(arguments)")
            #expect(result.stdoutText.isEmpty, "\(arguments)")
        }
    }

    @Test func malformedSealedMessagesFailWithTheirReason() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for c in try vectors.get().malformed where c.input_kind == "sealed" {
            let keyPath = dir.path("key-\(c.case)")
            try Data((try #require(c.private_key) + "\n").utf8).write(to: URL(fileURLWithPath: keyPath))
            let result = try await TandemProcess.run([
                "kasia", "open", "--key-file", keyPath, try #require(c.sealed_hex),
            ])
            #expect(result.status == 1)
            #expect(result.stderrText == "tandem: sealed message: \(c.error)\n", "\(c.case)")
        }
    }

    @Test func aliasCommandMatchesVectorsForBothSchemesAndStdinKeys() async throws {
        let v = try vectors.get()
        for pair in v.alias_pairs {
            let keyHex = try #require(v.key(named: pair.A)).private_key
            let chat = try await TandemProcess.run(
                ["kasia", "alias", "--key-file", "-", "--peer", pair.B_address, "--json"],
                stdin: Data((keyHex + "\n").utf8))
            #expect(
                chat.stdoutText
                    == "{\"myAlias\":\"\(pair.chat.A_myAlias)\",\"theirAlias\":\"\(pair.chat.A_theirAlias)\"}\n")
            let dm = try await TandemProcess.run(
                [
                    "kasia", "alias", "--key-file", "-", "--peer", pair.B_address,
                    "--scheme", "dm_alias_v1", "--json",
                ], stdin: Data(keyHex.utf8))
            #expect(
                dm.stdoutText
                    == "{\"myAlias\":\"\(pair.dm_alias_v1.A_myAlias)\",\"theirAlias\":\"\(pair.dm_alias_v1.A_theirAlias)\"}\n"
            )
        }
    }

    @Test func sealThenOpenRoundTripsThroughTheProfileKey() async throws {
        // Given a profile made from a raw key, as profiles were before seed phrases (issue 44)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = dir.path("profile")
        try FileManager.default.createDirectory(
            atPath: profile, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        FileManager.default.createFile(
            atPath: profile + "/wallet.key", contents: Data((PrivateKey.generate().hexRepresentation + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        let shown = try await TandemProcess.run("keys", "show", "--profile", profile, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
        let address = try #require(object["address"] as? String)
        #expect(address.hasPrefix("kaspa:q"))
        #expect((object["publicKey"] as? String)?.count == 64)
        #expect(object["source"] as? String == "raw")
        #expect(object["path"] == nil)

        // When a message is sealed to its address and opened with its key file
        let plaintext = "gm 🌅\nsecond line"
        let sealed = try await TandemProcess.run(["kasia", "seal", "--to", address], stdin: Data(plaintext.utf8))
        #expect(sealed.status == 0)
        let opened = try await TandemProcess.run([
            "kasia", "open", "--key-file", profile + "/wallet.key",
            sealed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
        ])

        // Then the plaintext comes back byte for byte
        #expect(opened.stdoutText == plaintext)
    }

    @Test func keysNewRefusesToOverwriteAndWritesOwnerOnlyFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = dir.path("p")
        let first = try await TandemProcess.run("keys", "new", "--profile", profile, "--json")
        #expect(first.status == 0)
        let keyBefore = try Data(contentsOf: URL(fileURLWithPath: profile + "/wallet.seed"))
        let second = try await TandemProcess.run("keys", "new", "--profile", profile)
        #expect(second.status == 1)
        #expect(second.stderrText.contains("refusing to overwrite"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: profile + "/wallet.seed")) == keyBefore)
        let attributes = try FileManager.default.attributesOfItem(atPath: profile + "/wallet.seed")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        var created = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        created["mnemonic"] = nil
        let shown = try await TandemProcess.run("keys", "show", "--profile", profile, "--json")
        #expect(
            NSDictionary(dictionary: created)
                == NSDictionary(
                    dictionary: try #require(try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])))
    }

    @Test func everyCommandHasHelp() async throws {
        for command in [
            ["kaspa", "address"], ["kaspa", "decode"], ["kasia", "alias"], ["kasia", "seal"],
            ["kasia", "open"], ["keys", "new"], ["keys", "show"], ["keys", "import"], ["keys", "export"],
            ["keys", "addresses"], ["keys", "protect"], ["keys", "unprotect"], ["wallet", "addresses"],
        ] {
            let result = try await TandemProcess.run(command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdoutText.contains("USAGE: tandem " + command.joined(separator: " ")), "\(command)")
        }
    }

    @Test func theShippedCLIHasNoBenchCommand() async throws {
        let result = try await TandemProcess.run(["bench", "timeline", "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
    }
}

/// Regression from the outside audit of 7acabc7 (issue 14): a huge retention window overflowed.
@Suite struct RoutingRetentionCLITests {
    @Test(arguments: [["stage", "c"], ["purge"]])
    func hugeRetentionWindowsAreRefusedWithOneLine(command: [String]) async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("p").path
        #expect(try await TandemProcess.run(["keys", "new", "--profile", profile]).status == 0)
        let result = try await TandemProcess.run(
            ["kasia", "routing"] + command + ["--profile", profile, "--retention-days", "300000000000000"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["tandem: --retention-days 300000000000000: at most 36500 days (100 years)"])
        let accepted = try await TandemProcess.run(
            ["kasia", "routing"] + command + ["--profile", profile, "--retention-days", "36500"])
        #expect(accepted.status == 0, "\(accepted.stderrText)")
    }
}
