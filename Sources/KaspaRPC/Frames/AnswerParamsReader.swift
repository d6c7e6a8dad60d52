import TandemBasics

/// Answer params that read themselves from a frame in one pass (issue 49 item 4): every call's
/// answer went through `JSONDecoder` for its params, a fixed cost of every sent message when the
/// answer is only `{"transactionId": …}`.
///
/// What a reader takes, `JSONDecoder` reads to the same value; anything else stops it, and
/// ``RPCFrame/params(_:from:)`` then hands the frame to `JSONDecoder`, so refusals and their
/// messages stay exactly `JSONDecoder`'s.
protocol RPCAnswerReader {
    /// Reads the value of the frame's `params` member; the scanner stands at that value.
    static func read(params scanner: inout FrameScanner) throws(UtxosChangedReaderError) -> Self
}

enum AnswerParamsReader {
    /// The `params` of the frame `bytes`: one object whose other members are skipped, `params`
    /// given once.
    static func read<T: RPCAnswerReader>(_ type: T.Type, from bytes: [UInt8]) throws(UtxosChangedReaderError) -> T {
        var scanner = FrameScanner(bytes)
        var params: T?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "params":
                guard params == nil else { throw scanner.refusal(.duplicateMember("params")) }
                params = try T.read(params: &scanner)
            default:
                try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        guard let params else { throw scanner.refusal(.missingMember("params")) }
        return params
    }
}

/// `submitTransaction`'s answer: `{"transactionId": 64 hex digits}`, either case as `Hex.decode`
/// reads them; unknown members skipped, as `JSONDecoder` skips them.
extension RPCTransactionID: RPCAnswerReader {
    static func read(params scanner: inout FrameScanner) throws(UtxosChangedReaderError) -> RPCTransactionID {
        var id: [UInt8]?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "transactionId":
                guard id == nil else { throw scanner.refusal(.duplicateMember("transactionId")) }
                let text = try scanner.string()
                let bytes: [UInt8]
                do { bytes = try Hex.decode(utf8: text) } catch {
                    throw scanner.refusal(.invalidHex(member: "transactionId", error))
                }
                guard bytes.count == 32 else {
                    throw scanner.refusal(.byteCount(member: "transactionId", expected: "32", got: bytes.count))
                }
                id = bytes
            default:
                try scanner.skipValue()
            }
        }
        guard let id else { throw scanner.refusal(.missingMember("transactionId")) }
        return RPCTransactionID(transactionId: id)
    }
}
