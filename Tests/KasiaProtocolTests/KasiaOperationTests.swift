import KasiaProtocol
import Testing

/// `KasiaOperation` is the one spelling of the operation words (kasia-protocol §4): the parser
/// knows every case and the encoder writes what the parser reads.
@Suite struct KasiaOperationTests {
    @Test func theWireStringsAreKasias() {
        #expect(
            KasiaOperation.allCases.map(\.rawValue) == [
                "handshake", "comm", "pay", "payment", "self_stash", "bcast", "gcomm", "gctl",
            ])
    }

    @Test(arguments: KasiaOperation.allCases)
    func everyOperationIsKnownToTheParser(operation: KasiaOperation) {
        do {
            _ = try KasiaPayload(parsing: Array("ciph_msg:1:\(operation.rawValue):".utf8))
        } catch {
            #expect(error != .unknownOperation(operation.rawValue))
        }
    }

    @Test func encodedPayloadsParseBackToTheSameOperation() throws {
        let sealed = [UInt8](repeating: 7, count: 80)
        let payloads: [KasiaPayload] = [
            .handshake(sealed: sealed), .payment(sealed: sealed, form: .kachat),
            .payment(sealed: sealed, form: .unversioned),
            .selfStash(scope: "saved_handshake", sealed: sealed), .broadcast(channel: "news", text: "hello"),
        ]
        for payload in payloads {
            #expect(try KasiaPayload(parsing: payload.encoded(root: .ciphMsg)) == payload)
        }
        #expect(KasiaPayload.PaymentForm.kachat.name == "pay")
        #expect(KasiaPayload.PaymentForm.web(.hex).name == "payment")
        #expect(KasiaPayload.PaymentForm.unversioned.name == "unversioned_pay")
    }
}
