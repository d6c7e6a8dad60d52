import Foundation
import TandemBasics
import TandemTesting
import Testing

@testable import KaspaRPC

/// The answer-params reader (issue 49 item 4) held to `JSONDecoder`: `RPCFrame.params` gives
/// exactly what `RPCFrame.decodedParams` gives on every frame, and the reader itself reads the
/// `submitTransaction` answers a node writes instead of leaving them to `JSONDecoder`.
@Suite("Answer params reader (issue 49 item 4)")
struct AnswerParamsReaderTests {
    typealias Outcome = Result<RPCTransactionID, RPCFrameError>

    static let id = String(repeating: "0123456789abcdef", count: 4)

    static func agree(_ text: String) {
        let frame = Data(text.utf8)
        let fast = Outcome { () throws(RPCFrameError) in try RPCFrame.params(RPCTransactionID.self, from: frame) }
        let reference = Outcome { () throws(RPCFrameError) in
            try RPCFrame.decodedParams(RPCTransactionID.self, from: frame)
        }
        #expect(fast == reference, "\(text)")
    }

    @Test(
        "answers as nodes write them are read by the reader, to JSONDecoder's value",
        arguments: [
            #"{"id":7,"method":"submitTransaction","params":{"transactionId":"\#(id)"}}"#,
            #"{"params":{"transactionId":"\#(id.uppercased())"},"id":7,"method":"submitTransaction"}"#,
            #" { "id" : 1 , "params" : { "x" : [ null ] , "transactionId" : "\#(id)" } , "error" : null } "#,
            #"{"id":2,"params":{"transaction\u0049d":"\#(id)"}}"#,
        ])
    func nodeForms(_ text: String) throws {
        let read = try AnswerParamsReader.read(RPCTransactionID.self, from: Array(text.utf8))
        #expect(read == (try RPCFrame.decodedParams(RPCTransactionID.self, from: Data(text.utf8))))
        #expect(Hex.encode(read.transactionId) == Self.id)
        Self.agree(text)
    }

    @Test(
        "forms the reader does not take go to JSONDecoder, with its outcome",
        arguments: [
            #"{"id":7,"method":"submitTransaction","error":{"code":0,"message":"orphan"}}"#,
            #"{"id":7,"params":null}"#,
            #"{"id":7,"params":{}}"#,
            #"{"id":7,"params":{"transactionId":null}}"#,
            #"{"id":7,"params":{"transactionId":"ab"}}"#,
            #"{"id":7,"params":{"transactionId":"\#(id)00"}}"#,
            #"{"id":7,"params":{"transactionId":"\#(id.dropLast())g"}}"#,
            #"{"id":7,"params":{"transactionId":"\#(id)","transactionId":"\#(id.uppercased())"}}"#,
            #"{"id":7,"params":{"transactionId":"\#(id)"},"params":{}}"#,
            #"{"id":7,"params":{"transactionId":"\#(id)"},}"#,
            #"{"id":7,"params":{"transactionId":"\#(id)"}} x"#,
            #"[{"id":7,"params":{"transactionId":"\#(id)"}}]"#,
            #"{"id":7,"params":{"transactionId":"\#(id)","é":1}}"#,
            "",
        ])
    func otherForms(_ text: String) {
        Self.agree(text)
    }

    @Test("seeded answers with members in any order, whitespace and unknown members agree with JSONDecoder")
    func seededAnswers() throws {
        var random = SeededRandom(seed: 4_904)
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        for _ in 0..<500 {
            func space() -> String { spaces.randomElement(using: &random) ?? "" }
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
            let hex = Bool.random(using: &random) ? Hex.encode(bytes) : Hex.encode(bytes).uppercased()
            var inner = ["\"transactionId\":\(space())\"\(hex)\""]
            if Bool.random(using: &random) { inner.append("\"extra\":\(space())[1,{\"a\":\"b\\\"\"}]") }
            inner.shuffle(using: &random)
            var members = [
                "\"id\":\(space())\(UInt64.random(in: 0...UInt64.max, using: &random))",
                "\"method\":\"submitTransaction\"",
                "\"params\":\(space()){" + inner.map { space() + $0 + space() }.joined(separator: ",") + "}",
            ]
            if Bool.random(using: &random) { members.append("\"error\":\(space())null") }
            members.shuffle(using: &random)
            let text = space() + "{" + members.map { space() + $0 + space() }.joined(separator: ",") + "}" + space()
            let read = try AnswerParamsReader.read(RPCTransactionID.self, from: Array(text.utf8))
            #expect(read.transactionId == bytes)
            Self.agree(text)
        }
    }
}
