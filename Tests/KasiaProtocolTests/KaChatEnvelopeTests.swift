import KasiaProtocol
import Testing

/// Issue 43 item 4: KaChat's envelopes inside sealed text, read as KaChat reads them.
@Suite("KaChat's JSON envelopes")
struct KaChatEnvelopeTests {
    @Test("each known envelope with its members")
    func knownEnvelopes() {
        #expect(
            KaChatEnvelope(text: #"{"type":"reaction","targetTxId":"ab01","emoji":"👍","action":"add"}"#)
                == .reaction(targetTxID: "ab01", emoji: "👍"))
        #expect(
            KaChatEnvelope(text: #"  {"type":"reaction","targetTxId":"ab01","emoji":"👍","action":"remove"}"#)
                == .reaction(targetTxID: "ab01", emoji: nil))
        #expect(
            KaChatEnvelope(
                text:
                    #"{"type":"payment_notice","txId":"ABCD","amountSompi":150000000,"address":"kaspa:q","memo":"rent"}"#
            )
                == .paymentNotice(txID: "abcd", amountSompi: 150_000_000, address: "kaspa:q", memo: "rent"))
        #expect(
            KaChatEnvelope(text: #"{"type":"payment_notice","txId":"ab","amountSompi":1,"address":"kaspa:q"}"#)
                == .paymentNotice(txID: "ab", amountSompi: 1, address: "kaspa:q", memo: ""))
        #expect(KaChatEnvelope(text: #"{"type":"addr_pool","addresses":["kaspa:q"],"replace":true}"#) == .addressPool)
        #expect(KaChatEnvelope(text: #"{"type":"addr_pool_request"}"#) == .addressPool)
        #expect(KaChatEnvelope(text: #"{"type":"call_invite","callId":"c1","video":false}"#) == .call(kind: "invite"))
        #expect(
            KaChatEnvelope(text: #"{"type":"chess_move","gameId":"g","from":"e2","to":"e4"}"#) == .chess(kind: "move"))
        #expect(
            KaChatEnvelope(text: #"{"type":"reply","replyToId":"x","replyToPreview":"lunch?","text":"yes"}"#)
                == .reply(preview: "lunch?", text: "yes"))
        #expect(
            KaChatEnvelope(text: #"{"type":"edit","targetTxId":"ab","text":"fixed"}"#)
                == .edit(targetTxID: "ab", text: "fixed"))
    }

    @Test("ordinary text, unknown types and envelopes missing a member are messages")
    func notEnvelopes() {
        for text in [
            "hello", "{not json", #"["type","reaction"]"#, #"{"type":"sticker","id":1}"#, #"{"kind":"reaction"}"#,
            #"{"type":"reaction","emoji":"👍"}"#, #"{"type":"reaction","targetTxId":"ab","action":"add"}"#,
            #"{"type":"reaction","targetTxId":"ab","emoji":"👍","action":"toggle"}"#,
            #"{"type":"payment_notice","txId":"ab","amountSompi":-1,"address":"kaspa:q"}"#,
            #"{"type":"payment_notice","txId":"ab","amountSompi":1.5,"address":"kaspa:q"}"#,
            #"{"type":"payment_notice","txId":"ab","address":"kaspa:q"}"#, #"{"type":"call_end"}"#,
            #"{"type":7}"#, "",
        ] {
            #expect(KaChatEnvelope(text: text) == nil, "\(text)")
        }
        let huge = #"{"type":"reaction","targetTxId":"ab","emoji":"\#(String(repeating: "x", count: 100_000))"}"#
        #expect(KaChatEnvelope(text: huge) == nil)
    }
}

@Suite("Payment memos")
struct PaymentMemoTests {
    @Test("KaChat's form: the amount in sompi; Kasia web's: in KAS, one space for no memo")
    func bothForms() throws {
        let memo = PaymentMemo(message: "", amountSompi: 150_000_000, timestampMilliseconds: 1_800_000_000_000)
        #expect(
            try memo.jsonText(form: .kachat)
                == #"{"amount":150000000,"message":"","timestamp":1800000000000,"type":"payment","version":1}"#)
        #expect(
            try memo.jsonText(form: .web(.hex))
                == #"{"amount":1.5,"message":" ","timestamp":1800000000000,"type":"payment","version":1}"#)
    }

    @Test("a memo of 140 characters is written, one of 141 refused")
    func memoCap() throws {
        let emoji = String(repeating: "🍜", count: 140)
        #expect(throws: Never.self) {
            try PaymentMemo(message: emoji, amountSompi: 1, timestampMilliseconds: 0).jsonText(form: .kachat)
        }
        #expect(throws: PaymentMemoError.memoTooLong(characters: 141)) {
            try PaymentMemo(message: emoji + "x", amountSompi: 1, timestampMilliseconds: 0).jsonText(form: .kachat)
        }
    }

    @Test("the app a handshake plaintext shows decides the payment form")
    func handshakeApp() {
        #expect(
            HandshakePayload.app(
                ofPlaintext:
                    #"{"type":"handshake","alias":"53361e0aa739","conversation_id":"0123456789ab","version":1}"#)
                == .kachat)
        #expect(HandshakePayload.app(ofPlaintext: #"{"type":"handshake","timestamp":1,"version":1}"#) == .kasiaWeb)
        #expect(HandshakePayload.app(ofPlaintext: "not json") == nil)
    }
}

/// Issue 46 item 3: message content is read by KasiaProtocol, not by the ingest.
@Suite("MessageContent: what an opened message says")
struct MessageContentTests {
    @Test func plainWordsAreTextAndAnEnvelopeIsAnEnvelope() throws {
        #expect(MessageContent(message: "hello {not json") == .text("hello {not json"))
        #expect(MessageContent(message: "hello").shownText == "hello")
        let reaction = #"{"type":"reaction","targetTxId":"ab12","emoji":"👍"}"#
        let envelope = try #require(KaChatEnvelope(text: reaction))
        #expect(MessageContent(message: reaction) == .envelope(envelope))
        #expect(MessageContent(message: reaction).shownText == nil)
        // JSON that is no envelope of KaChat's is words, shown as they are.
        #expect(MessageContent(message: #"{"type":"unknown"}"#) == .text(#"{"type":"unknown"}"#))
    }

    @Test(
        "a payment's memo is its message member, blank when only whitespace, the plaintext when not JSON",
        arguments: [
            (#"{"type":"payment","message":"for lunch","amount":150000000,"timestamp":1,"version":1}"#, "for lunch"),
            (#"{"type":"payment","message":" ","amount":1.5,"timestamp":1,"version":1}"#, ""),
            (#"{"type":"payment","amount":1}"#, ""),
            ("thanks!", "thanks!"),
        ])
    func paymentMemo(_ plaintext: String, _ shown: String) {
        #expect(MessageContent(paymentPlaintext: plaintext) == .paymentMemo(shown))
    }
}
