import Foundation
import KasiaProtocol
import KaspaCrypto
import TestSupport
import Testing

@Suite("Handshake and saved-handshake codecs")
struct HandshakePayloadTests {
    /// Compares a decoded payload with a vector's `parsed` object field by field.
    private func expectMatches(
        _ payload: HandshakePayload, form: HandshakePayload.Form, _ parsed: [String: Any], _ label: String
    ) {
        #expect(form.rawValue == parsed["form"] as? String, "\(label)")
        #expect(parsed["type"] as? String == "handshake", "\(label)")
        #expect(payload.alias?.rawValue == parsed["alias"] as? String, "\(label)")
        #expect(payload.theirAlias?.rawValue == parsed["theirAlias"] as? String, "\(label)")
        switch payload.timestamp {
        case .milliseconds(let ms): #expect((parsed["timestamp"] as? NSNumber)?.int64Value == ms, "\(label)")
        case .text(let text): #expect(parsed["timestamp"] as? String == text, "\(label)")
        case nil: #expect(parsed["timestamp"] is NSNull, "\(label)")
        }
        #expect((parsed["version"] as? NSNumber)?.intValue == payload.version, "\(label)")
        #expect(payload.conversationID == parsed["conversationId"] as? String, "\(label)")
        #expect(payload.recipientAddress == parsed["recipientAddress"] as? String, "\(label)")
        #expect(payload.sendToRecipient == (parsed["sendToRecipient"] as? NSNumber)?.boolValue, "\(label)")
        #expect(payload.isResponse == (parsed["isResponse"] as? NSNumber)?.boolValue, "\(label)")
        #expect(payload.isAliasless == (parsed["aliasless"] as? NSNumber)?.boolValue, "\(label)")
    }

    @Test("every vector handshake decodes to its parsed fields")
    func vectorHandshakesDecode() throws {
        let examples = try KasiaLooseVectors.handshakeExamples()
        #expect(examples.count == 8)
        for example in examples {
            let label = example["label"] as? String ?? "?"
            let decoded = try HandshakePayload.decodeWithForm(try #require(example["plaintext"] as? String))
            expectMatches(decoded.payload, form: decoded.form, try #require(example["parsed"] as? [String: Any]), label)
        }
    }

    @Test("malformed handshakes are rejected with the reference's reason")
    func malformedHandshakesRejected() throws {
        let cases = try KasiaVectors.load().malformed.filter { $0.input_kind == "handshake_plaintext" }
        #expect(cases.count == 6)
        for c in cases {
            let error = #expect(throws: HandshakeError.self, "\(c.case)") {
                try HandshakePayload(decoding: try #require(c.plaintext))
            }
            #expect(error?.description == c.error, "\(c.case)")
        }
    }

    @Test("the alias never comes from the plaintext's first 12 characters")
    func aliaslessPlaintextYieldsNoAlias() throws {
        // `{"type":"han` is 12 characters; an old fallback took that as the alias.
        let payload = try HandshakePayload(decoding: #"{"type":"handshake","timestamp":1,"version":1}"#)
        #expect(payload.alias == nil && payload.isAliasless)
        #expect(throws: HandshakeError.self) { try HandshakePayload(decoding: "a1b2c3d4e5f6 not json") }
    }

    @Test func snakeCaseAndCapabilityHintsAreRead() throws {
        let payload = try HandshakePayload(
            decoding: """
                {"type":"handshake","timestamp":5,"version":1,"is_response":true,"conversation_id":"abc",
                 "their_alias":"A1B2C3D4E5F6","supports_deterministic_aliases":true}
                """)
        #expect(payload.isResponse && payload.conversationID == "abc")
        #expect(payload.theirAlias?.rawValue == "a1b2c3d4e5f6")
        #expect(payload.supportsDeterministicAliases == true)
        #expect(throws: HandshakeError.invalidField("isResponse")) {
            try HandshakePayload(decoding: #"{"type":"handshake","isResponse":"yes"}"#)
        }
    }

    @Test("outgoing handshakes: version 1, compatibility alias or alias-less")
    func outgoingPolicies() throws {
        let alias = try Alias("b0b410d89cba")
        let compatible = HandshakePayload.outgoing(
            policy: .compatibility(outgoingAlias: alias), timestampMilliseconds: 1_735_689_600_000,
            isResponse: true, recipientAddress: "kaspa:qrpcd0zxvnw83rc6ad02recpwvapmwy08q6l9mnk70dgtehxxtyhu2sv666pj",
            conversationID: "0123456789ab")
        let text = try compatible.jsonText
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1 && object["alias"] as? String == "b0b410d89cba")
        #expect(object["is_response"] as? Bool == true && object["isResponse"] as? Bool == true)
        #expect(object["conversation_id"] as? String == "0123456789ab")
        #expect(try HandshakePayload(decoding: text) == compatible)

        let aliasless = HandshakePayload.outgoing(
            policy: .aliasless, timestampMilliseconds: 7, isResponse: false,
            recipientAddress: "x", conversationID: nil)
        #expect(try aliasless.jsonText == #"{"timestamp":7,"type":"handshake","version":1}"#)
        #expect(try HandshakePayload(decoding: try aliasless.jsonText).isAliasless)
    }

    @Test("self-stash: staged writes, and restore derives aliases from the partner alone")
    func savedHandshakeRoundTrip() throws {
        let vectors = try KasiaVectors.load()
        let stashText = try #require(try KasiaLooseVectors.txPlaintexts()["self_stash"])
        let restored = try SavedHandshake(decoding: stashText)
        #expect(
            restored.partnerAddress.description == "kaspa:qrlnrdnkme58avh8mhcrr8rpj3tgfuj5qp70d6355s424yceaeqsjxklulud6"
        )
        #expect(restored.alias?.rawValue == "53361e0aa739" && restored.theirAlias?.rawValue == "b0b410d89cba")

        let aliasless = try restored.jsonText(policy: .aliasless)
        #expect(!aliasless.contains("alias"))
        let fromAliasless = try SavedHandshake(decoding: aliasless)
        #expect(fromAliasless.alias == nil && fromAliasless.partnerAddress == restored.partnerAddress)
        #expect(try SavedHandshake(decoding: try restored.jsonText(policy: .compatibility)) == restored)

        // The deterministic pair needs nothing but the partner address and our key.
        let pairVector = vectors.alias_pairs[0]
        let key = try PrivateKey(hex: try #require(vectors.key(named: pairVector.A)).private_key)
        let stash = SavedHandshake(
            partnerAddress: try KaspaAddress(pairVector.B_address), isResponse: false,
            timestampMilliseconds: 1)
        let pair = try SavedHandshake(decoding: try stash.jsonText(policy: .aliasless)).derivedAliases(privateKey: key)
        #expect(
            pair.myAlias.rawValue == pairVector.chat.A_myAlias
                && pair.theirAlias.rawValue == pairVector.chat.A_theirAlias)

        #expect(throws: HandshakeError.missingPartnerAddress) {
            try SavedHandshake(decoding: #"{"type":"handshake","version":1}"#)
        }
        #expect(throws: HandshakeError.self) {
            try SavedHandshake(
                decoding: #"{"type":"handshake","their_alias":"a1b2c3d4e5f6","partner_address":"kaspa:nope"}"#)
        }
    }
}

/// Regressions from the outside audit of 7acabc7 (issue 14): peers control the handshake text.
@Suite struct HandshakeHostileInputTests {
    @Test(arguments: ["1e19", "9223372036854775808", "1.8e308", "-1e19", "2.5"])
    func versionsFarOutOfRangeAreRefusedAndDescribedWithoutTrapping(version: String) {
        let text = #"{"type":"handshake","version":"# + version + "}"
        #expect(throws: HandshakeError.self) { try HandshakePayload(decoding: text) }
        do {
            _ = try HandshakePayload(decoding: text)
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    @Test func hugeVersionNamesTheVersion() {
        #expect(HandshakeError.unsupportedVersion(1e19).description == "unsupported handshake version 1e+19")
        #expect(HandshakeError.unsupportedVersion(2).description == "unsupported handshake version 2")
    }
}
