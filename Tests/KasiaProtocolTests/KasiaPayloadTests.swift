import KasiaProtocol
import KaspaCrypto
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@Suite("Transaction payload envelopes")
struct KasiaPayloadTests {
    @Test("every vector payload parses to its kind, body and indexer fields")
    func vectorPayloadsParse() throws {
        let items = try KasiaLooseVectors.txPayloadItems()
        #expect(items.count == 8)
        for item in items {
            let label = item["label"] as? String ?? "?"
            let payload = try KasiaPayload(parsingHex: try #require(item["tx_payload_hex"] as? String))
            #expect(payload.kindName == item["kind"] as? String, "\(label)")
            #expect(Hex.encode(payload.indexerStoredBody) == item["indexer_stored_hex"] as? String, "\(label)")
            if let sealedHex = item["sealed_hex_after_body_decode"] as? String {
                #expect(payload.sealed.map(Hex.encode) == sealedHex, "\(label)")
            }
            switch payload {
            case .contextualMessage(let alias, _, _):
                #expect(alias.rawValue == item["alias"] as? String)
                #expect(alias.indexerQueryParameter == item["indexer_alias_query_param"] as? String)
            case .selfStash(let scope, _):
                #expect(scope == item["scope"] as? String)
                #expect(scope.map { Hex.encode($0.utf8) } == item["indexer_scope_query_param"] as? String)
            case .broadcast(let channel, let text):
                #expect(channel == item["channel"] as? String)
                #expect(text == item["text"] as? String)
            default: break
            }
            // Re-encoding reproduces the exact on-chain bytes for every form.
            #expect(Hex.encode(payload.encoded(root: .ciphMsg)) == item["tx_payload_hex"] as? String, "\(label)")
        }
    }

    @Test("hex and base64 comm bodies carry the same sealed bytes")
    func commBodiesDecodeBothWays() throws {
        let items = try KasiaLooseVectors.txPayloadItems().filter { $0["kind"] as? String == "comm" }
        let parsed = try items.map { try KasiaPayload(parsingHex: try #require($0["tx_payload_hex"] as? String)) }
        #expect(Set(parsed.compactMap { $0.sealed.map(Hex.encode) }).count == 1)
        let encodings = parsed.compactMap { if case .contextualMessage(_, _, let e) = $0 { e } else { nil } }
        #expect(Set(encodings) == [.base64, .hex])
    }

    @Test("malformed payloads are rejected with the reference's reason")
    func malformedPayloadsRejected() throws {
        let cases = try KasiaVectors.load().malformed.filter { $0.input_kind == "tx_payload" }
        #expect(cases.count == 4)
        for c in cases {
            let error = #expect(throws: KasiaPayloadError.self, "\(c.case)") {
                try KasiaPayload(parsingHex: try #require(c.tx_payload_hex))
            }
            #expect(error?.description.hasPrefix(c.error) == true, "\(c.case): \(String(describing: error))")
        }
    }

    @Test func writesWhatKaChatWrites() throws {
        let sealed = try KasiaCipher.seal("gm", to: PrivateKey.generate().publicKey)
        let alias = try Alias("53361e0aa739")
        let comm = KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded(
            root: .ciphMsg)
        #expect(String(decoding: comm.prefix(29), as: UTF8.self) == "ciph_msg:1:comm:53361e0aa739:")
        #expect(
            KasiaPayload.handshake(sealed: sealed).encoded(root: .ciphMsg) == Array("ciph_msg:1:handshake:".utf8)
                + sealed)
        #expect(
            KasiaPayload.payment(sealed: sealed, form: .kachat).encoded(root: .ciphMsg) == Array("ciph_msg:1:pay:".utf8)
                + sealed)
        #expect(
            KasiaPayload.selfStash(scope: KasiaPayload.savedHandshakeScope, sealed: sealed).encoded(root: .ciphMsg)
                == Array("ciph_msg:1:self_stash:saved_handshake:".utf8) + sealed)
        for payload in [
            KasiaPayload.handshake(sealed: sealed), .payment(sealed: sealed, form: .kachat),
            .contextualMessage(alias: alias, sealed: sealed, encoding: .base64),
            .selfStash(scope: "saved_handshake", sealed: sealed), .selfStash(scope: nil, sealed: sealed),
            .payment(sealed: sealed, form: .unversioned), .legacy(sealed: sealed),
        ] {
            #expect(try KasiaPayload(parsing: payload.encoded(root: .ciphMsg)) == payload)
        }
    }

    @Test func readsUnversionedPayAndBareLegacyForms() throws {
        let sealed = try KasiaCipher.seal("x", to: PrivateKey.generate().publicKey)
        #expect(
            try KasiaPayload(parsing: Array("ciph_msg:pay:".utf8) + sealed)
                == .payment(sealed: sealed, form: .unversioned))
        #expect(try KasiaPayload(parsing: Array("ciph_msg:".utf8) + sealed) == .legacy(sealed: sealed))
        #expect(throws: KasiaPayloadError.unsupportedOperation("gcomm")) {
            try KasiaPayload(parsing: Array("ciph_msg:1:gcomm:a:b".utf8))
        }
        #expect(throws: KasiaPayloadError.invalidAlias("nothex!")) {
            try KasiaPayload(parsing: Array("ciph_msg:1:comm:nothex!:AAAA".utf8))
        }
        #expect(throws: KasiaPayloadError.emptyBody) { try KasiaPayload(parsing: Array("ciph_msg:1:handshake:".utf8)) }
    }

    @Test("random bytes after the prefix never trap (seeded: a failure replays)")
    func fuzzedPayloadsNeverTrap() {
        var generator = SeededRandom(seed: 0x4B41_5349_4121)
        let prefixes = [
            "ciph_msg:", "ciph_msg:1:", "ciph_msg:1:comm:", "ciph_msg:1:comm:53361e0aa739:",
            "ciph_msg:1:self_stash:", "ciph_msg:1:payment:", "ciph_msg:1:bcast:",
        ]
        for _ in 0..<2000 {
            let prefix = Array(prefixes[Int.random(in: 0..<prefixes.count, using: &generator)].utf8)
            let tail = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? KasiaPayload(parsing: prefix + tail)
        }
    }
}
