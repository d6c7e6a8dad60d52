import KasiaProtocol
import KaspaCrypto
import TandemBasics
import Testing

/// Issue 43 item 1: KaChat's `kchat:` root beside `ciph_msg:` (kasia-protocol §16).
@Suite("The kchat: and ciph_msg: roots")
struct KasiaRootTests {
    let sealed: [UInt8] = {
        // A sealed-looking body: nonce, a compressed-key parity byte at offset 12, then bytes.
        var bytes = [UInt8](repeating: 0xab, count: 12) + [0x02] + [UInt8](repeating: 0x5c, count: 60)
        bytes[20] = UInt8(ascii: ":")
        return bytes
    }()

    var everyOperation: [KasiaPayload] {
        get throws {
            [
                .handshake(sealed: sealed),
                .contextualMessage(alias: try Alias("53361e0aa739"), sealed: sealed, encoding: .base64),
                .contextualMessage(alias: try Alias("53361e0aa739"), sealed: sealed, encoding: .hex),
                .payment(sealed: sealed, form: .kachat), .payment(sealed: sealed, form: .web(.hex)),
                .payment(sealed: sealed, form: .web(.binary)), .payment(sealed: sealed, form: .unversioned),
                .selfStash(scope: "saved_handshake", sealed: sealed), .selfStash(scope: nil, sealed: sealed),
                .broadcast(channel: "news", text: "hello"), .legacy(sealed: sealed),
            ]
        }
    }

    @Test("the migration spec's prefix vectors")
    func migrationSpecVectors() throws {
        #expect(Hex.encode(KasiaRoot.kchat.prefix) == "6b636861743a")
        #expect(Hex.encode(KasiaRoot.kchat.prefix + Array("1:".utf8)) == "6b636861743a313a")
        let comm = KasiaPayload.contextualMessage(alias: try Alias("53361e0aa739"), sealed: sealed, encoding: .base64)
        #expect(Hex.encode(comm.encoded(root: .kchat)).hasPrefix("6b636861743a313a636f6d6d3a"))
    }

    @Test("every operation reads the same under both roots, and re-encodes to its own bytes")
    func everyOperationUnderBothRoots() throws {
        for payload in try everyOperation {
            let legacy = payload.encoded(root: .ciphMsg)
            let kchat = payload.encoded(root: .kchat)
            // Only the root differs: the body after it is byte-identical.
            #expect(Array(legacy.dropFirst("ciph_msg:".utf8.count)) == Array(kchat.dropFirst("kchat:".utf8.count)))
            let read = try KasiaEnvelope(parsing: kchat)
            #expect(read == KasiaEnvelope(payload, root: .kchat), "\(payload.kindName)")
            #expect(read.encoded == kchat)
            #expect(try KasiaEnvelope(parsing: legacy) == KasiaEnvelope(payload, root: .ciphMsg))
            #expect(try KasiaPayload(parsing: kchat) == (try KasiaPayload(parsing: legacy)))
        }
    }

    @Test("the versionless forms under kchat:")
    func versionlessForms() throws {
        #expect(
            try KasiaEnvelope(parsing: Array("kchat:".utf8) + sealed)
                == KasiaEnvelope(.legacy(sealed: sealed), root: .kchat))
        #expect(
            try KasiaEnvelope(parsing: Array("kchat:pay:".utf8) + sealed)
                == KasiaEnvelope(.payment(sealed: sealed, form: .unversioned), root: .kchat))
    }

    @Test("no other root, no case folding, nothing after the root: not a Kasia payload")
    func otherRootsRefused() {
        for text in [
            "KCHAT:1:handshake:xx", "kchat", "kchat:", "kchatx:1:comm:53361e0aa739:AAAA", "kasia:1:pay:xx", "",
        ] {
            #expect(throws: KasiaPayloadError.notKasiaPayload, "\(text)") {
                try KasiaEnvelope(parsing: Array(text.utf8))
            }
        }
        #expect(throws: KasiaPayloadError.unsupportedOperation("gcomm")) {
            try KasiaEnvelope(parsing: Array("kchat:1:gcomm:a:b".utf8))
        }
    }

    @Test("a legacy handshake plaintext may carry either root's handshake prefix")
    func prefixedHandshakePlaintext() throws {
        let json = #"{"type":"handshake","alias":"53361e0aa739","timestamp":1,"version":1}"#
        for prefix in ["ciph_msg:1:handshake:", "kchat:1:handshake:"] {
            let (payload, form) = try HandshakePayload.decodeWithForm(prefix + json)
            #expect(form == .prefixedJSON)
            #expect(payload.alias?.rawValue == "53361e0aa739")
        }
    }

    @Test("the indexer files both roots and both payment forms; broadcasts and group operations are skipped")
    func indexerReading() throws {
        for root in KasiaRoot.allCases {
            func read(_ rest: String, _ body: [UInt8] = []) -> KasiaIndexedPayload? {
                KasiaIndexedPayload(root.prefix + Array(rest.utf8) + body)
            }
            #expect(read("1:pay:", sealed) == KasiaIndexedPayload(root: root, kind: .payment, body: sealed))
            #expect(read("1:payment:", sealed) == KasiaIndexedPayload(root: root, kind: .payment, body: sealed))
            #expect(read("1:handshake:", sealed) == KasiaIndexedPayload(root: root, kind: .handshake, body: sealed))
            #expect(read("", sealed) == KasiaIndexedPayload(root: root, kind: .handshake, body: sealed))
            // The alias is kept as written (cut to 16 bytes), the body not checked.
            #expect(
                read("1:comm:ABCDEF0123456789XYZ:body")
                    == KasiaIndexedPayload(
                        root: root, kind: .contextualMessage, tag: Array("ABCDEF0123456789".utf8),
                        body: Array("body".utf8)))
            #expect(read("1:comm:noDelimiter") == nil)
            #expect(
                read("1:self_stash:saved_handshake:", sealed)
                    == KasiaIndexedPayload(
                        root: root, kind: .selfStash, tag: Array("saved_handshake".utf8), body: sealed))
            #expect(
                read("1:self_stash:nocolon")
                    == KasiaIndexedPayload(root: root, kind: .selfStash, body: Array("nocolon".utf8)))
            #expect(read("1:bcast:news:hello") == nil)
            #expect(read("1:gcomm:a:b") == nil)
            #expect(read("") == nil)
        }
        #expect(KasiaIndexedPayload(Array("other:1:pay:x".utf8)) == nil)
    }
}

@Suite("Which root a conversation writes")
struct RoutingRootTests {
    let me = PrivateKey.generate()
    let peer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)

    func state() throws -> ConversationRoutingState {
        try ConversationRoutingState(contact: peer, privateKey: me, now: UnixMillis(0))
    }

    @Test("without evidence ciph_msg:, which both networks read")
    func defaultIsCiphMsg() throws {
        let fresh = try state()
        #expect(fresh.rootDecision == (.ciphMsg, .noEvidence))
        #expect(fresh.writeRoot == .ciphMsg)
    }

    @Test("the peer's newest payload decides; an older row read later does not undo it")
    func newestEvidenceWins() throws {
        var s = try state()
        s.recordRoot(.kchat, at: UnixMillis(2_000))
        #expect(s.rootDecision == (.kchat, .evidence))
        s.recordRoot(.ciphMsg, at: UnixMillis(1_000))
        #expect(s.writeRoot == .kchat)
        s.recordRoot(.ciphMsg, at: UnixMillis(3_000))
        #expect(s.writeRoot == .ciphMsg)
        // At the same time kchat: wins: a peer that writes it reads it.
        s.recordRoot(.kchat, at: UnixMillis(3_000))
        #expect(s.peerRoot == RootEvidence(root: .kchat, at: UnixMillis(3_000)))
        s.recordRoot(.ciphMsg, at: UnixMillis(3_000))
        #expect(s.writeRoot == .kchat)
    }

    @Test("a pin holds against evidence until auto lifts it")
    func pinHolds() throws {
        var s = try state()
        s.rootPreference = .kchat
        #expect(s.rootDecision == (.kchat, .pinned))
        s.rootPreference = .ciphMsg
        s.recordRoot(.kchat, at: UnixMillis(5))
        #expect(s.rootDecision == (.ciphMsg, .pinned))
        s.rootPreference = .auto
        #expect(s.rootDecision == (.kchat, .evidence))
    }
}

@Suite("Which payment form a conversation writes")
struct PaymentFormTests {
    @Test("KaChat's pay: unless the peer's payloads show Kasia web; kchat: shows KaChat")
    func formFollowsTheApp() throws {
        let peer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
        var state = try ConversationRoutingState(contact: peer, privateKey: PrivateKey.generate(), now: UnixMillis(0))
        #expect(state.paymentForm == .kachat)
        state.recordApp(.kasiaWeb, at: UnixMillis(10))
        #expect(state.paymentForm == .web(.hex))
        state.recordApp(.kachat, at: UnixMillis(5))
        #expect(state.paymentForm == .web(.hex), "older evidence does not replace newer")
        state.recordRoot(.kchat, at: UnixMillis(20))
        #expect(state.paymentForm == .kachat)
        #expect(state.peerApp == PeerAppEvidence(app: .kachat, at: UnixMillis(20)))
    }
}
