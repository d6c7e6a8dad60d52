import Foundation
import TandemTesting
import Testing

@testable import KaspaRPC

/// The answer-head reader (issue 49 item 4) held to `JSONDecoder`: `RPCFrame.inbound` gives
/// exactly what `RPCFrame.decodedInbound` gives on every frame, and the reader itself reads the
/// answers a node writes instead of leaving them to `JSONDecoder`.
@Suite("Answer head reader (issue 49 item 4)")
struct AnswerHeadReaderTests {
    typealias Outcome = Result<RPCFrame.Inbound, RPCFrameError>

    static func agree(_ text: String) {
        let frame = Data(text.utf8)
        let fast = Outcome { () throws(RPCFrameError) in try RPCFrame.inbound(frame) }
        let reference = Outcome { () throws(RPCFrameError) in try RPCFrame.decodedInbound(frame) }
        #expect(fast == reference, "\(text)")
    }

    @Test(
        "answers as nodes write them are read by the reader, with the same id and method",
        arguments: [
            #"{"id":7,"method":"submitTransaction","params":{"transactionId":"ab"}}"#,
            #"{"method":"ping","params":{},"id":18446744073709551615}"#,
            #" { "params" : [ 1 , { "a" : [ ] } ] , "error" : null , "id" : 0 , "method" : "getInfo" } "#,
            #"{"id":3,"method":"getMempoolEntry","params":{"entry":{"fee":1,"transaction":{"inputs":[]}}},"x":true}"#,
            #"{"id":4,"m\u0065thod":"ping","params":null}"#,
        ])
    func nodeForms(_ text: String) throws {
        let reference = try RPCFrame.decodedInbound(Data(text.utf8))
        guard case .response(let id, let method, _) = reference else {
            Issue.record("JSONDecoder did not read an answer: \(reference)")
            return
        }
        let head = try AnswerHeadReader.read(Array(text.utf8))
        #expect(head.id == id)
        #expect(head.method == method)
        Self.agree(text)
    }

    @Test(
        "refusals, notifications and forms the reader does not take go to JSONDecoder, with its outcome",
        arguments: [
            #"{"id":7,"method":"submitTransaction","error":{"code":0,"message":"orphan"}}"#,
            #"{"id":null,"method":"virtualDaaScoreChangedNotification","params":{"VirtualDaaScoreChanged":{"virtualDaaScore":5}}}"#,
            #"{"method":"blockAddedNotification","params":{}}"#,
            #"{"id":-1,"method":"ping","params":{}}"#,
            #"{"id":1.0,"method":"ping","params":{}}"#,
            #"{"id":1e2,"method":"ping","params":{}}"#,
            #"{"id":01,"method":"ping","params":{}}"#,
            #"{"id":18446744073709551616,"method":"ping","params":{}}"#,
            #"{"id":1,"id":2,"method":"ping","params":{}}"#,
            #"{"id":1,"method":"pïng","params":{}}"#,
            #"{"id":1,"params":{}}"#,
            #"{"id":1,"method":7}"#,
            #"{"id":1,"method":"ping",}"#,
            #"[{"id":1,"method":"ping"}]"#,
            #"{"id":1,"method":"ping"} x"#,
            "",
        ])
    func otherForms(_ text: String) {
        Self.agree(text)
    }

    @Test("seeded answers with members in any order, whitespace and unknown members agree with JSONDecoder")
    func seededAnswers() throws {
        var random = SeededRandom(seed: 494)
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        for _ in 0..<500 {
            func space() -> String { spaces.randomElement(using: &random) ?? "" }
            var members = [
                "\"id\":\(space())\(UInt64.random(in: 0...UInt64.max, using: &random))",
                "\"method\":\(space())\"\(["ping", "submitTransaction", "getServerInfo"].randomElement(using: &random) ?? "")\"",
                "\"params\":\(space()){\"a\":[1,\(space())\"b\\\"c\",{\"d\":null}],\"e\":\(Bool.random(using: &random))}",
            ]
            if Bool.random(using: &random) { members.append("\"error\":\(space())null") }
            if Bool.random(using: &random) { members.append("\"jsonrpc\":\"2.0\"") }
            members.shuffle(using: &random)
            let text = space() + "{" + members.map { space() + $0 + space() }.joined(separator: ",") + "}" + space()
            _ = try AnswerHeadReader.read(Array(text.utf8))
            Self.agree(text)
        }
    }
}
