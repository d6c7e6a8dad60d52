import Foundation
import TestSupport
import Testing

@Suite("tandem kasia payload/handshake/routing")
struct KasiaParseCLITests {
    @Test func payloadParseReportsTheVectorFields() async throws {
        for item in try KasiaLooseVectors.txPayloadItems() {
            let result = try await TandemProcess.run([
                "kasia", "payload", "parse", try #require(item["tx_payload_hex"] as? String), "--json",
            ])
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            for key in [
                "kind", "alias", "scope", "channel", "text", "sealed_hex_after_body_decode", "indexer_stored_hex",
                "indexer_alias_query_param", "indexer_scope_query_param",
            ] {
                #expect(object[key] as? String == item[key] as? String, "\(item["label"] ?? "?") \(key)")
            }
        }
    }

    @Test func handshakeParsePrintsTheVectorsParsedObjects() async throws {
        for example in try KasiaLooseVectors.handshakeExamples() {
            let result = try await TandemProcess.run(
                ["kasia", "handshake", "parse", "--json"],
                stdin: Data(try #require(example["plaintext"] as? String).utf8))
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let expected = try #require(example["parsed"] as? [String: Any])
            let normalised = { (value: [String: Any]) in
                String(
                    decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try normalised(object) == normalised(expected), "\(example["label"] ?? "?")")
        }
    }

    @Test("malformed payloads and handshakes: exit 1, one line naming the input")
    func malformedInputsFail() async throws {
        for c in try KasiaVectors.load().malformed {
            let result: TandemProcess.Output
            switch c.input_kind {
            case "tx_payload":
                result = try await TandemProcess.run([
                    "kasia", "payload", "parse", try #require(c.tx_payload_hex), "--json",
                ])
            case "handshake_plaintext":
                result = try await TandemProcess.run(
                    ["kasia", "handshake", "parse", "--json"], stdin: Data(try #require(c.plaintext).utf8))
            default: continue
            }
            #expect(result.status == 1, "\(c.case)")
            #expect(
                result.stderrLines.count == 1 && result.stderrText.contains(c.error), "\(c.case): \(result.stderrText)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func routingMigrateShowWatchAndStage() async throws {
        // Given a profile and a KaChat snapshot naming one legacy contact
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = dir.path("p")
        let keys = try await TandemProcess.run("keys", "new", "--profile", profile, "--json")
        let wallet = try #require(
            (try JSONSerialization.jsonObject(with: keys.stdout) as? [String: Any])?["address"] as? String)
        let peer = "kaspa:qrlnrdnkme58avh8mhcrr8rpj3tgfuj5qp70d6355s424yceaeqsjxklulud6"
        let snapshot: [String: Any] = [
            "conversationAliases": [peer: ["a1b2c3d4e5f6"]], "ourAliases": [peer: ["0f1e2d3c4b5a"]],
            "kachat_contacts_wallet_\(wallet)": [["address": peer]],
        ]
        try JSONSerialization.data(withJSONObject: snapshot).write(to: URL(fileURLWithPath: dir.path("snap.json")))

        // When it is migrated twice
        let first = try await TandemProcess.run(
            "kasia", "routing", "migrate", "--profile", profile, "--from", dir.path("snap.json"), "--json")
        let second = try await TandemProcess.run(
            "kasia", "routing", "migrate", "--profile", profile, "--from", dir.path("snap.json"), "--json")

        // Then the first run migrated one hybrid contact and the second changed nothing
        let report = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        #expect(report["performed"] as? Bool == true && report["hybrid"] as? Int == 1)
        #expect(
            (try JSONSerialization.jsonObject(with: second.stdout) as? [String: Any])?["performed"] as? Bool == false)
        let show = try await #require(
            try JSONSerialization.jsonObject(
                with: TandemProcess.run("kasia", "routing", "show", "--profile", profile, "--json").stdout)
                as? [[String: Any]])
        #expect(show.first?["mode"] as? String == "hybrid" && show.first?["sendAlias"] as? String == "0f1e2d3c4b5a")
        let watch = try await #require(
            try JSONSerialization.jsonObject(
                with: TandemProcess.run("kasia", "routing", "watch", "--profile", profile, "--json").stdout)
                as? [String])
        #expect(watch.contains("a1b2c3d4e5f6") && watch.contains(show.first?["myAlias"] as? String ?? "?"))
        #expect(
            try await TandemProcess.run("kasia", "routing", "stage", "d", "--profile", profile).stdoutText
                == "derived_aliases_mode: deterministic_only\n")
        let watchD = try await #require(
            try JSONSerialization.jsonObject(
                with: TandemProcess.run("kasia", "routing", "watch", "--profile", profile, "--json").stdout)
                as? [String])
        #expect(watchD == [show.first?["myAlias"] as? String ?? "?"])
        #expect(try await TandemProcess.run("kasia", "routing", "stage", "z", "--profile", profile).status == 1)
    }
}

/// Regression from the outside audit of 7acabc7 (issue 14): error lines echoed raw payload bytes.
@Suite struct HostileErrorTextCLITests {
    @Test(arguments: ["ciph_msg:1:comm:", "ciph_msg:1:"])
    func errorsEscapeControlBytesAndStayShort(prefix: String) async throws {
        // Given an alias or operation word full of control bytes and 20,000 more characters
        let hostile =
            Array(prefix.utf8) + Array("\n\u{1B}[2J\u{7}\r".utf8)
            + Array(repeating: UInt8(ascii: "x"), count: 20_000) + Array(":QUFB".utf8)
        let hex = hostile.map { String(format: "%02x", $0) }.joined()
        // When the CLI reports it
        let result = try await TandemProcess.run(["kasia", "payload", "parse", hex, "--json"])
        // Then it is one short line with the control bytes escaped
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "\(result.stderrText.prefix(200))")
        #expect(result.stderrText.contains("\\n\\u{1B}[2J\\u{7}\\r"))
        #expect(!result.stderr.contains(0x1B) && !result.stderr.contains(0x07) && !result.stderr.contains(0x0D))
        #expect(result.stderr.count < 1_000)
        #expect(result.stdout.isEmpty)
    }
}
