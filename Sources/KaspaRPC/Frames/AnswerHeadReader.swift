/// Reads the head of a successful answer — `id` and `method`, with `error` null or absent — in one
/// pass over the frame's bytes (issue 49 item 4): every call's answer went through `JSONDecoder`
/// twice, once for its head here and once for its params, and the head's pass was a fixed cost of
/// every call to the node.
///
/// What it reads, `JSONDecoder` reads the same (``FrameScanner`` is the stricter of the two).
/// Anything else stops it: an `error` that is not null, an `id` that is null, signed, fractional or
/// past `UInt64`, a member it reads given twice, a non-ASCII string, a frame that is not one
/// object. ``RPCFrame/inbound(_:)`` then hands the frame to `JSONDecoder`, so refusals, errors and
/// notifications read as before.
enum AnswerHeadReader {
    static func read(_ bytes: [UInt8]) throws(UtxosChangedReaderError) -> (id: UInt64, method: String) {
        var scanner = FrameScanner(bytes)
        var id: UInt64?
        var method: String?
        var sawError = false
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "id":
                guard id == nil else { throw scanner.refusal(.duplicateMember("id")) }
                id = try scanner.unsignedInteger()
            case "method":
                guard method == nil else { throw scanner.refusal(.duplicateMember("method")) }
                method = String(decoding: try scanner.string(), as: UTF8.self)
            case "error":
                guard !sawError else { throw scanner.refusal(.duplicateMember("error")) }
                sawError = true
                guard scanner.null() else { throw scanner.refusal(.errorMember) }
            default:
                try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        guard let id else { throw scanner.refusal(.missingMember("id")) }
        guard let method else { throw scanner.refusal(.missingMember("method")) }
        return (id, method)
    }
}
