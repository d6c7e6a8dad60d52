public import Foundation

/// Reading the `POST /api/redo/nodes` answer without `JSONDecoder` when it is in exactly the form
/// the server writes (issue 49 item 6: decoding 500 results per push was a fiftieth of a sync's
/// CPU): no whitespace, each result's members in sorted order (`code` and `message` only when
/// present), printable ASCII strings without escapes, a known status.
///
/// For such a text `JSONDecoder` reads the same results. Anything else gives nil, and the caller
/// decodes with `JSONDecoder`, which accepts or rejects it exactly as before.
/// `RedoNodePushResponseCompactWireTests` checks the two agree on random and mutated answers.
extension RedoNodePushResponse {
    public init?(compactWire data: Data) {
        guard let response = CompactWireReader.read(data, { $0.pushResponse() }) else { return nil }
        self = response
    }
}

extension CompactWireReader {
    fileprivate mutating func pushResponse() -> RedoNodePushResponse? {
        guard literal(#"{"results":["#) else { return nil }
        var results: [RedoNodePushResult] = []
        if !literal("]") {
            repeat {
                guard let result = pushResult() else { return nil }
                results.append(result)
            } while literal(",")
            guard literal("]") else { return nil }
        }
        guard literal("}"), index == bytes.count else { return nil }
        return RedoNodePushResponse(results: results)
    }

    private mutating func pushResult() -> RedoNodePushResult? {
        guard literal(#"{""#) else { return nil }
        var code: String?
        if literal(#"code":""#) {
            guard let text = plainString(), literal(#",""#) else { return nil }
            code = text
        }
        guard literal(#"id":""#), let id = plainString() else { return nil }
        var message: String?
        if literal(#","message":""#) {
            guard let text = plainString() else { return nil }
            message = text
        }
        guard literal(#","status":""#), let statusText = plainString(),
            let status = RedoNodePushResult.Status(rawValue: statusText), literal("}")
        else { return nil }
        return RedoNodePushResult(id: id, status: status, code: code, message: message)
    }
}
