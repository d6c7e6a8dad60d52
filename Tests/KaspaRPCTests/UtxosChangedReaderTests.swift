import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemBasics
import Testing

@testable import KaspaRPC

/// The UtxosChanged reader (issue 24's 1,000-entry notification in < 10 ms) held to `JSONDecoder`:
/// `RPCFrame.inbound` must give exactly what `RPCFrame.decodedInbound` gives — the same change, or
/// the same `RPCFrameError` with the same text — on every frame, and the reader must read the
/// node's form itself rather than leave it to `JSONDecoder`.
@Suite("UtxosChanged reader (issue 24)")
struct UtxosChangedReaderTests {
    typealias Outcome = Result<RPCFrame.Inbound, RPCFrameError>

    static func outcomes(_ text: String) -> (fast: Outcome, reference: Outcome) {
        outcomes(Data(text.utf8))
    }

    static func outcomes(_ frame: Data) -> (fast: Outcome, reference: Outcome) {
        (
            Outcome { () throws(RPCFrameError) in try RPCFrame.inbound(frame) },
            Outcome { () throws(RPCFrameError) in try RPCFrame.decodedInbound(frame) }
        )
    }

    static let address = "kaspatest:qpclq8jzjhkxgq8slxysz9mtq59guctqp3dhfgyjp0jew77kmssx6dhh9gz54"
    static let script = "000020" + String(repeating: "ab", count: 32) + "ac"

    /// One entry as the node writes it, `address` and `utxoEntry` members replaceable.
    static func entry(address: String = "\"\(address)\"", amount: String = "994979000", index: String = "1") -> String {
        """
        {"address":\(address),"outpoint":{"transactionId":"\(String(repeating: "ab", count: 32))","index":\(index)},\
        "utxoEntry":{"amount":\(amount),"scriptPublicKey":"\(script)","blockDaaScore":1000004,"isCoinbase":false,\
        "covenantId":null}}
        """
    }

    static func frame(added: [String], removed: [String] = []) -> String {
        """
        {"method":"utxosChangedNotification","params":{"UtxosChanged":{"added":[\(added.joined(separator: ","))],\
        "removed":[\(removed.joined(separator: ","))]}}}
        """
    }

    @Test("generated frames: the same change or the same error as JSONDecoder, and the node's form read without it")
    func generatedFramesAgreeWithJSONDecoder() throws {
        // Given 3,000 seeded frames of each kind, when each is read both ways, then the outcomes are
        // equal, and whatever the reader reads by itself JSONDecoder reads as the same change.
        var generator = try UtxosChangedFrameGenerator(seed: 24)
        var read = [UtxosChangedFrameGenerator.Kind: Int]()
        var refused = [UtxosChangedFrameGenerator.Kind: Int]()
        for round in 0..<3_000 {
            for kind in UtxosChangedFrameGenerator.Kind.allCases {
                let text = generator.frame(kind)
                let (fast, reference) = Self.outcomes(text)
                #expect(fast == reference, "round \(round), \(kind): \(text)")
                if case .failure = reference { refused[kind, default: 0] += 1 }
                guard let change = try? UtxosChangedReader.read(Data(text.utf8)) else {
                    #expect(kind != .node, "the reader left a frame in the node's form to JSONDecoder: \(text)")
                    continue
                }
                read[kind, default: 0] += 1
                #expect(reference == .success(.notification(.utxosChanged(change))), "\(kind): \(text)")
            }
        }
        // And every frame in the node's form was read by the reader itself, and JSONDecoder refused
        // most of the invalid ones (a change that breaks one can leave it valid, e.g. an optional
        // member removed).
        let summary = UtxosChangedFrameGenerator.Kind.allCases.map {
            "\($0): read \(read[$0] ?? 0), refused \(refused[$0] ?? 0)"
        }
        print("3,000 generated frames of each kind, read by the reader / refused by JSONDecoder: \(summary)")
        #expect(read[.node] == 3_000)
        #expect(refused[.node] == nil)
        #expect((refused[.invalid] ?? 0) > 1_500)
    }

    @Test("a frame cut at any byte is the same typed error both ways, never a crash")
    func truncatedFrames() throws {
        let text = Self.frame(
            added: [Self.entry(), Self.entry(address: "null", amount: "18446744073709551615")],
            removed: [
                Self.entry(address: #""kaspatest:\u0071pclq8jzjhkxgq8slxysz9mtq59guctqp3dhfgyjp0jew77kmssx6dhh9gz54""#)
            ])
        let bytes = Array(text.utf8)
        #expect(throws: Never.self) { try UtxosChangedReader.read(Data(bytes)) }
        for end in 0..<bytes.count {
            let cut = Data(bytes[..<end])
            #expect(throws: UtxosChangedReaderError.self) { try UtxosChangedReader.read(cut) }
            let (fast, reference) = Self.outcomes(cut)
            guard case .failure(.malformed) = fast else {
                Issue.record("a frame cut at byte \(end) was read")
                continue
            }
            #expect(fast == reference)
        }
    }

    @Test(
        "a member of the wrong type or out of range is refused exactly as JSONDecoder refuses it",
        arguments: [
            "\"x\"", "1", "-1", "1.5", "true", "null", "[]", "{}", "\"zz\"", "18446744073709551616", "4294967296",
            "\"\"", "\"00\"", "\"kaspa:qqqq\"",
        ])
    func wrongTypes(value: String) {
        let texts = [
            Self.frame(added: [Self.entry(address: value)]),
            Self.frame(added: [Self.entry(amount: value)]),
            Self.frame(added: [Self.entry(index: value)]),
            Self.frame(added: [Self.entry().replacingOccurrences(of: "\"\(Self.script)\"", with: value)]),
            Self.frame(added: [Self.entry().replacingOccurrences(of: "1000004", with: value)]),
            Self.frame(added: [
                Self.entry().replacingOccurrences(of: "\"isCoinbase\":false", with: "\"isCoinbase\":\(value)")
            ]),
            Self.frame(added: []).replacingOccurrences(of: "\"added\":[]", with: "\"added\":\(value)"),
            Self.frame(added: []).replacingOccurrences(
                of: "{\"UtxosChanged\"", with: "{\"id\":\(value),\"UtxosChanged\""),
            Self.frame(added: []).replacingOccurrences(of: "{\"method\"", with: "{\"id\":\(value),\"method\""),
            Self.frame(added: []).replacingOccurrences(of: "{\"method\"", with: "{\"error\":\(value),\"method\""),
            Self.frame(added: []).replacingOccurrences(of: "\"utxosChangedNotification\"", with: value),
        ]
        for text in texts {
            let (fast, reference) = Self.outcomes(text)
            #expect(fast == reference, "\(text)")
        }
    }

    @Test("every byte of a frame replaced by a JSON-significant one: the same outcome both ways")
    func replacedBytes() {
        let bytes = Array(Self.frame(added: [Self.entry()], removed: [Self.entry(address: "null")]).utf8)
        let replacements = Array("\"\\{}[],: 0a-.e".utf8) + [0x00, 0x1f, 0x7f, 0xc3, 0xff]
        for offset in bytes.indices {
            for replacement in replacements where replacement != bytes[offset] {
                var changed = bytes
                changed[offset] = replacement
                let (fast, reference) = Self.outcomes(Data(changed))
                #expect(fast == reference, "byte \(offset) → \(replacement)")
            }
        }
    }

    @Test("the node's freedoms: any member order, whitespace, escapes, null and absent optional members")
    func nodeForm() throws {
        let text = """
             {"params" : {"other":[1,{"a":[]}],"UtxosChanged":{"removed":[],"added":[
              {"utxoEntry":{"scriptPublicKey":"\(Self.script.uppercased())","amount":18446744073709551615},
               "outpoint":{"index":0,"transaction\\u0049d":"\(String(repeating: "AB", count: 32))"},
               "address":null},
              {"outpoint":{"transactionId":"\(String(repeating: "ab", count: 32))","index":4294967295},
               "utxoEntry":{"amount":0,"scriptPublicKey":"0001","blockDaaScore":null,"isCoinbase":true},
               "address":"kaspatest:\\u0071pclq8jzjhkxgq8slxysz9mtq59guctqp3dhfgyjp0jew77kmssx6dhh9gz54"}]}},
             "id":null, "method":"utxos\\u0043hangedNotification", "error":null}\t\r\n
            """
        let change = try UtxosChangedReader.read(Data(text.utf8))
        let script = try #require(RPCScriptPublicKey.value(wireBytes: try Hex.decode(Self.script)))
        let transactionID = [UInt8](repeating: 0xab, count: 32)
        #expect(
            change
                == RPCUtxosChanged(
                    added: [
                        RPCUtxosByAddressesEntry(
                            address: nil, outpoint: KaspaOutpoint(transactionID: transactionID, index: 0),
                            utxoEntry: RPCUtxoEntry(
                                amount: .max, scriptPublicKey: script, blockDaaScore: 0, isCoinbase: false)),
                        RPCUtxosByAddressesEntry(
                            address: try KaspaAddress(Self.address),
                            outpoint: KaspaOutpoint(transactionID: transactionID, index: .max),
                            utxoEntry: RPCUtxoEntry(
                                amount: 0, scriptPublicKey: KaspaScriptPublicKey(version: 1, script: []),
                                blockDaaScore: 0, isCoinbase: true)),
                    ], removed: []))
        #expect(try RPCFrame.decodedInbound(Data(text.utf8)) == .notification(.utxosChanged(change)))
    }

    @Test(
        "what the reader leaves to JSONDecoder, and why",
        arguments: [
            (#"{"id":1,"method":"ping","params":{}}"#, UtxosChangedReaderError.Reason.otherFrame),
            (
                #"{"method":"virtualDaaScoreChangedNotification","params":{"VirtualDaaScoreChanged":{}}}"#,
                .otherFrame
            ),
            (frame(added: [entry(amount: "1.0")]), .unexpected(expected: "',' or the container's end")),
            (frame(added: [entry(amount: "01")]), .unsupportedNumber),
            (frame(added: [entry(index: "4294967296")]), .unsupportedNumber),
            (frame(added: [entry(address: "\"caf\\u00e9\"")]), .nonASCIIString),
            (
                frame(added: []).replacingOccurrences(of: "{\"method\"", with: "{\"id\":null,\"id\":null,\"method\""),
                .duplicateMember("id")
            ),
            (
                frame(added: []).replacingOccurrences(
                    of: "{\"method\"",
                    with: "{\"x\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
                        + ",\"method\""),
                .tooDeep
            ),
            (frame(added: []).replacingOccurrences(of: ",\"removed\":[]", with: ""), .missingMember("removed")),
        ])
    func refusals(text: String, reason: UtxosChangedReaderError.Reason) {
        #expect(throws: UtxosChangedReaderError.self) { try UtxosChangedReader.read(Data(text.utf8)) }
        do {
            _ = try UtxosChangedReader.read(Data(text.utf8))
        } catch {
            #expect(error.reason == reason, "\(error)")
        }
        let (fast, reference) = Self.outcomes(text)
        #expect(fast == reference)
    }

    @Test("entries that share an address text all read that address")
    func repeatedAddresses() throws {
        let text = Self.frame(added: (0..<50).map { Self.entry(index: String($0)) }, removed: [Self.entry()])
        let change = try UtxosChangedReader.read(Data(text.utf8))
        let address = try KaspaAddress(Self.address)
        #expect((change.added + change.removed).allSatisfy { $0.address == address })
        #expect(change.added.map(\.outpoint.index) == Array(0..<50))
    }
}
